/** A client's value as a 422 names it: JSON-quoted, cut to a readable length. */
const MAX_QUOTED_CHARS = 80;

export function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_QUOTED_CHARS ? `${text.slice(0, MAX_QUOTED_CHARS)}…` : text;
}
