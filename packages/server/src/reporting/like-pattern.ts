/**
 * The pattern language of the `contains` and `matches` filters, as LIKE patterns: no user text
 * is ever read as a pattern by the database except `*`, so there is no regex and no backtracking.
 */

/** `%`, `_` and `\` (LIKE's default escape) stand for themselves. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** `contains`: the value anywhere (compared case-insensitively by the caller). */
export const containsPattern = (value: string) => `%${escapeLike(value)}%`;

/** `matches`: the whole value, `*` standing for any run of characters, everything else literal. */
export const matchesPattern = (value: string) => value.split('*').map(escapeLike).join('%');
