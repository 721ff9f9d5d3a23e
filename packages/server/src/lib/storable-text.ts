/**
 * Text PostgreSQL can store. It refuses the NUL character in any text, and a lone UTF-16
 * surrogate inside JSON; one such value would fail the whole ingest batch it travels in, so
 * free text from clients passes through here first: NULs are dropped and lone surrogates become
 * U+FFFD, the replacement character.
 */
export function storableText(text: string): string {
  const withoutNul = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
  // String.prototype.toWellFormed is in Node 20; the ES2023 typings do not declare it yet.
  return (withoutNul as string & { toWellFormed(): string }).toWellFormed();
}
