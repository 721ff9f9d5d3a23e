/**
 * ClickHouse SQL with every value a bound parameter, as the PostgreSQL side builds it with
 * Kysely's tagged templates: `chSql` templates join into one statement whose values travel as
 * `{pN:Type}` query parameters, never as text inside the statement. Names (tables, columns,
 * functions) come only from the fixed maps of this folder.
 */
export type ChValue = string | number | boolean | string[];

export interface ChFragment {
  readonly parts: readonly string[];
  readonly values: readonly (ChValue | ChFragment | Typed)[];
}

/** A value with its ClickHouse type given (a UUID, a time). */
export interface Typed {
  readonly typed: ChValue;
  readonly type: string;
}

export const typed = (value: ChValue, type: string): Typed => ({ typed: value, type });

export function chSql(parts: TemplateStringsArray, ...values: (ChValue | ChFragment | Typed)[]): ChFragment {
  return { parts: [...parts], values };
}

/** Text written into the statement as it is: only ever names and keywords from this folder. */
export const chRaw = (text: string): ChFragment => ({ parts: [text], values: [] });

export function chJoin(fragments: ChFragment[], separator = ', '): ChFragment {
  if (fragments.length === 0) return chRaw('');
  return { parts: ['', ...Array<string>(fragments.length - 1).fill(separator), ''], values: fragments };
}

const isFragment = (value: unknown): value is ChFragment =>
  typeof value === 'object' && value !== null && 'parts' in value;
const isTyped = (value: unknown): value is Typed =>
  typeof value === 'object' && value !== null && 'typed' in value;

const typeOf = (value: ChValue): string => {
  if (Array.isArray(value)) return 'Array(String)';
  if (typeof value === 'number') return Number.isInteger(value) ? 'Int64' : 'Float64';
  if (typeof value === 'boolean') return 'Bool';
  return 'String';
};

/** The statement's text and its parameters. */
export function compileCh(fragment: ChFragment): { query: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  let next = 0;
  const walk = (f: ChFragment): string => {
    let text = f.parts[0] ?? '';
    f.values.forEach((value, i) => {
      if (isFragment(value)) text += walk(value);
      else {
        const name = `p${next++}`;
        const [raw, type] = isTyped(value) ? [value.typed, value.type] : [value, typeOf(value)];
        params[name] = raw;
        text += `{${name}:${type}}`;
      }
      text += f.parts[i + 1] ?? '';
    });
    return text;
  };
  return { query: walk(fragment), params };
}
