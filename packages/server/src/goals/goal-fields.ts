/**
 * Rules for the editable fields of a goal (interface §2.2, §8): display name, emoji, sort order.
 * Each returns why a value is refused, or null; the zod schemas and the service share them.
 */
import { badInput } from '../http/errors.js';

export const DISPLAY_NAME_MAX_CHARS = 120;
export const SORT_ORDER_MAX = 10_000;
export const REORDER_MAX_IDS = 500;
/** The longest RGI emoji is 15 UTF-16 units; longer input is refused before the regex runs. */
const EMOJI_MAX_UNITS = 64;

// `RGI_Emoji` is a property of strings, so it needs the `v` flag; TypeScript only accepts the
// flag in literals when targeting ES2024, and Node 20 (our floor) supports it at run time.
// biome-ignore lint/complexity/useRegexLiterals: a literal with the v flag fails to compile at target ES2023
const SINGLE_EMOJI = new RegExp('^\\p{RGI_Emoji}$', 'v');

/**
 * True for exactly one emoji as Unicode recommends it for general interchange: single
 * pictographs, skin-tone variants, flags (regional-indicator pairs and tag sequences), keycaps
 * and ZWJ sequences. Text, two emoji, a bare variation selector or a lone regional indicator
 * are not one emoji. Which emoji exist follows the ICU data of the running Node.
 */
export function isSingleEmoji(value: string): boolean {
  return value.length <= EMOJI_MAX_UNITS && SINGLE_EMOJI.test(value);
}

export function emojiProblem(value: string): string | null {
  return isSingleEmoji(value) ? null : 'must be exactly one emoji';
}

/** Counted in code points, so an emoji in a display name counts once. Call with trimmed text. */
export function displayNameProblem(value: string): string | null {
  const length = [...value].length;
  if (length < 1 || length > DISPLAY_NAME_MAX_CHARS)
    return `must be 1 to ${DISPLAY_NAME_MAX_CHARS} characters`;
  if (/\p{Cc}/u.test(value)) return 'must not contain control characters';
  return null;
}

export function sortOrderProblem(value: number): string | null {
  return Number.isInteger(value) && value >= 0 && value <= SORT_ORDER_MAX
    ? null
    : `must be an integer from 0 to ${SORT_ORDER_MAX}`;
}

export interface GoalFieldsInput {
  display_name?: string | null;
  emoji?: string | null;
  sort_order?: number;
}

/**
 * The editable fields as given, checked and normalised (display names trimmed); keys left out
 * of the input are left out of the result, so the result is also the set of changes.
 */
export function checkGoalFields(input: GoalFieldsInput): GoalFieldsInput {
  const fields: GoalFieldsInput = {};
  if (input.display_name !== undefined) {
    const value = input.display_name === null ? null : input.display_name.trim();
    const problem = value === null ? null : displayNameProblem(value);
    if (problem) throw badInput('display_name', `display_name ${problem}`);
    fields.display_name = value;
  }
  if (input.emoji !== undefined) {
    const problem = input.emoji === null ? null : emojiProblem(input.emoji);
    if (problem) throw badInput('emoji', `emoji ${problem}`);
    fields.emoji = input.emoji;
  }
  if (input.sort_order !== undefined) {
    const problem = sortOrderProblem(input.sort_order);
    if (problem) throw badInput('sort_order', `sort_order ${problem}`);
    fields.sort_order = input.sort_order;
  }
  return fields;
}
