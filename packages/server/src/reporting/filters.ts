/**
 * Reads the `filters` of a stats query into a tree the query layer compiles: `[op, dimension,
 * values]` leaves under `["and"|"or", [...]]` and `["not", f]` groups. Anything else is a 422
 * naming the exact place (`filters.1.2`), so a client sees which part to fix.
 */
import { badInput } from '../http/errors.js';
import { quoted } from './quoted.js';
import {
  type EventDimension,
  FILTER_OPERATORS,
  isEventDimension,
  isTimeDimension,
  isVisitDimension,
  type VisitDimension,
} from './stats-vocabulary.js';

export type FilterOperator = (typeof FILTER_OPERATORS)[number];
export interface FilterLeaf {
  op: FilterOperator;
  dimension: VisitDimension | EventDimension;
  values: string[];
}
export type Filter = FilterLeaf | { op: 'and' | 'or'; filters: Filter[] } | { op: 'not'; filter: Filter };

const MAX_DEPTH = 6;
const MAX_VALUES = 100;
const MAX_VALUE_CHARS = 1000;
/** `contains` and `matches` become LIKE patterns: fewer and shorter, so each stays cheap to scan. */
const MAX_PATTERNS = 50;
const MAX_PATTERN_CHARS = 200;

/** At most this many filters at the top of a list (the stats query body says the same). */
export const MAX_FILTERS = 50;

/**
 * The `filters` query parameter of the GET reports (sessions, events, people, funnels): the JSON
 * text of the list the stats query takes in its body.
 */
export function parseFiltersText(text: string | undefined): Filter[] {
  if (text === undefined) return [];
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    throw badInput(
      'filters',
      'filters must be the JSON text of a filter list, such as [["is","visit:channel",["ai"]]]',
      'query',
    );
  }
  if (!Array.isArray(list) || list.length > MAX_FILTERS) {
    throw badInput('filters', `filters must be a JSON list of at most ${MAX_FILTERS} filters`, 'query');
  }
  return parseFilters(list);
}

/** Every leaf of a filter tree. */
export function filterLeaves(filter: Filter): FilterLeaf[] {
  if ('filters' in filter) return filter.filters.flatMap(filterLeaves);
  if ('filter' in filter) return filterLeaves(filter.filter);
  return [filter];
}

/** The top-level list is an implicit `and`. */
export function parseFilters(input: unknown[] | undefined): Filter[] {
  return (input ?? []).map((item, index) => parseFilter(item, `filters.${index}`, 1));
}

function parseFilter(item: unknown, field: string, depth: number): Filter {
  if (depth > MAX_DEPTH) throw badInput(field, `${field}: filters nest at most ${MAX_DEPTH} deep`);
  if (!Array.isArray(item) || typeof item[0] !== 'string') {
    throw badInput(field, `${field} must be [operator, dimension, values] or a group such as ["and", [...]]`);
  }
  const op = item[0];
  if (op === 'and' || op === 'or') {
    const members = item[1];
    if (item.length !== 2 || !Array.isArray(members) || members.length === 0) {
      throw badInput(field, `${field} must be ["${op}", [filter, ...]] with at least one filter`);
    }
    return { op, filters: members.map((member, i) => parseFilter(member, `${field}.1.${i}`, depth + 1)) };
  }
  if (op === 'not') {
    if (item.length !== 2) throw badInput(field, `${field} must be ["not", filter]`);
    return { op, filter: parseFilter(item[1], `${field}.1`, depth + 1) };
  }
  if (!(FILTER_OPERATORS as readonly string[]).includes(op)) {
    throw badInput(
      `${field}.0`,
      `${field}.0: unknown filter operator ${quoted(op)}; one of ${FILTER_OPERATORS.join(', ')}, or a group: and, or, not`,
    );
  }
  const [, dimension, values] = item;
  if (typeof dimension !== 'string' || !(isVisitDimension(dimension) || isEventDimension(dimension))) {
    const why =
      typeof dimension === 'string' && isTimeDimension(dimension)
        ? `cannot filter on time (${quoted(dimension)}); use date_range`
        : `unknown filter dimension ${quoted(dimension)}`;
    throw badInput(`${field}.1`, `${field}.1: ${why}`);
  }
  if (
    item.length !== 3 ||
    !Array.isArray(values) ||
    values.length === 0 ||
    values.length > MAX_VALUES ||
    !values.every((value) => typeof value === 'string' && value.length <= MAX_VALUE_CHARS)
  ) {
    throw badInput(
      `${field}.2`,
      `${field}.2 must be a list of 1 to ${MAX_VALUES} strings of at most ${MAX_VALUE_CHARS} characters`,
    );
  }
  if ((op === 'contains' || op === 'matches') && (values.length > MAX_PATTERNS || values.some(tooLong))) {
    throw badInput(
      `${field}.2`,
      `${field}.2: ${op} takes 1 to ${MAX_PATTERNS} patterns of at most ${MAX_PATTERN_CHARS} characters`,
    );
  }
  return { op: op as FilterOperator, dimension, values };
}

const tooLong = (value: string) => value.length > MAX_PATTERN_CHARS;
