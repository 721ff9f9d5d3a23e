/**
 * The hand-written row types (`DB` in types.ts, with the tables other files add to it) against
 * the migrated database: every table and column on both sides, nullability, a coarse type, and
 * whether an insert may leave the column out. The TypeScript compiler reads the types as Kysely
 * sees them, so a failure names the table and column to fix in the types, on PGlite and on
 * PostgreSQL alike.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../test/database.js';
import type { Database } from './database.js';

const SRC = fileURLToPath(new URL('../', import.meta.url));
const TYPES_FILE = path.join(SRC, 'db/types.ts');

/** What a value reads as in JavaScript, as coarse as the check needs. */
type Kind = 'string' | 'number' | 'boolean' | 'Date' | 'bytes' | 'array' | 'object' | 'any';

interface Column {
  nullable: boolean;
  kinds: Kind[];
  /** `optional`: an insert may leave it out; `never`: an insert may not set it. */
  insert: 'required' | 'optional' | 'never';
}
type Tables = Map<string, Map<string, Column>>;

// The parsers of db/database.ts: int8 and numeric arrive as numbers, date as its text.
const KIND_OF_PG_TYPE: Record<string, Kind> = {
  text: 'string',
  varchar: 'string',
  bpchar: 'string',
  uuid: 'string',
  date: 'string',
  inet: 'string',
  cidr: 'string',
  int2: 'number',
  int4: 'number',
  int8: 'number',
  float4: 'number',
  float8: 'number',
  numeric: 'number',
  xid8: 'string',
  bool: 'boolean',
  timestamptz: 'Date',
  timestamp: 'Date',
  bytea: 'bytes',
  json: 'any',
  jsonb: 'any',
};

/** Files that add tables or columns to the row types (`declare module '../db/…'`). */
async function augmentingFiles(): Promise<string[]> {
  const entries = (await readdir(SRC, { recursive: true })).filter(
    (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'),
  );
  const files: string[] = [];
  for (const name of entries) {
    const text = await readFile(path.join(SRC, name), 'utf8');
    if (/declare module '\.\.\/db\//.test(text)) files.push(path.join(SRC, name));
  }
  return files;
}

async function tablesOfTypes(): Promise<Tables> {
  const configPath = fileURLToPath(new URL('../../tsconfig.json', import.meta.url));
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`cannot read ${configPath}`);
  const program = ts.createProgram([TYPES_FILE, ...(await augmentingFiles())], config.options);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(TYPES_FILE);
  const moduleSymbol = source && checker.getSymbolAtLocation(source);
  const dbSymbol = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.name === 'DB');
  if (!dbSymbol) throw new Error('types.ts exports no DB');

  const kindsOf = (members: ts.Type[]): { nullable: boolean; kinds: Kind[] } => {
    const kinds = new Set<Kind>();
    let nullable = false;
    for (const member of members) {
      const flags = member.flags;
      if (flags & (ts.TypeFlags.Null | ts.TypeFlags.Undefined)) nullable = true;
      else if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) kinds.add('any');
      else if (flags & ts.TypeFlags.StringLike) kinds.add('string');
      else if (flags & ts.TypeFlags.NumberLike) kinds.add('number');
      else if (flags & ts.TypeFlags.BooleanLike) kinds.add('boolean');
      else if (checker.isArrayType(member) || checker.isTupleType(member)) kinds.add('array');
      else if (member.symbol?.name === 'Date') kinds.add('Date');
      else if (['Uint8Array', 'Buffer'].includes(member.symbol?.name ?? '')) kinds.add('bytes');
      else kinds.add('object');
    }
    return { nullable, kinds: [...kinds].sort() };
  };
  const insertOf = (members: ts.Type[]): Column['insert'] => {
    if (members.every((member) => member.flags & ts.TypeFlags.Never)) return 'never';
    return members.some((member) => member.flags & ts.TypeFlags.Undefined) ? 'optional' : 'required';
  };

  // Kysely's ColumnType<Select, Insert, Update> carries the three as phantom properties, and its
  // Selectable and Insertable distribute over a union (`Timestamp | null`): so does this.
  const phantom = (type: ts.Type, name: '__select__' | '__insert__'): ts.Type[] =>
    (type.isUnion() ? type.types : [type]).flatMap((member) => {
      const property = member.getProperty(name);
      if (!property) return [member];
      const inner = checker.getTypeOfSymbol(property);
      return inner.isUnion() ? inner.types : [inner];
    });

  const tables: Tables = new Map();
  for (const table of checker.getDeclaredTypeOfSymbol(dbSymbol).getProperties()) {
    const columns = new Map<string, Column>();
    for (const column of checker.getTypeOfSymbol(table).getProperties()) {
      const type = checker.getTypeOfSymbol(column);
      columns.set(column.name, {
        ...kindsOf(phantom(type, '__select__')),
        insert: insertOf(phantom(type, '__insert__')),
      });
    }
    tables.set(table.name, columns);
  }
  return tables;
}

interface CatalogColumn {
  table_name: string;
  column_name: string;
  type_name: string;
  element_type: string | null;
  not_null: boolean;
  has_default: boolean;
  generated: boolean;
}

async function tablesOfDatabase(database: Database): Promise<Map<string, Map<string, CatalogColumn>>> {
  // Domains answer their base type; partitions are left out, their parent stands for them.
  const { rows } = await sql<CatalogColumn>`
    select c.relname as table_name, a.attname as column_name,
           coalesce(base.typname, t.typname) as type_name,
           element.typname as element_type,
           a.attnotnull as not_null, a.atthasdef as has_default,
           (a.attgenerated <> '' or a.attidentity = 'a') as generated
    from pg_attribute a
    join pg_class c on c.oid = a.attrelid
    join pg_namespace n on n.oid = c.relnamespace
    join pg_type t on t.oid = a.atttypid
    left join pg_type base on t.typtype = 'd' and base.oid = t.typbasetype
    left join pg_type element on element.oid = coalesce(base.typelem, t.typelem) and element.oid <> 0
      and coalesce(base.typcategory, t.typcategory) = 'A'
    where n.nspname = current_schema() and c.relkind in ('r', 'p') and not c.relispartition
      and a.attnum > 0 and not a.attisdropped
    order by 1, a.attnum`.execute(database.db);
  const tables = new Map<string, Map<string, CatalogColumn>>();
  for (const row of rows) {
    const columns = tables.get(row.table_name) ?? new Map<string, CatalogColumn>();
    columns.set(row.column_name, row);
    tables.set(row.table_name, columns);
  }
  return tables;
}

function kindOfCatalog(column: CatalogColumn, enums: Set<string>): Kind | undefined {
  if (column.element_type) return 'array';
  if (enums.has(column.type_name)) return 'string';
  return KIND_OF_PG_TYPE[column.type_name];
}

/** Every difference, one line each, so one failure lists all there is to fix. */
function differences(
  types: Tables,
  catalog: Map<string, Map<string, CatalogColumn>>,
  enums: Set<string>,
): string[] {
  const found: string[] = [];
  for (const table of catalog.keys()) if (!types.has(table)) found.push(`${table}: a table the types lack`);
  for (const [table, columns] of types) {
    const stored = catalog.get(table);
    if (!stored) {
      found.push(`${table}: in the types, not in the database`);
      continue;
    }
    for (const name of stored.keys()) {
      if (!columns.has(name)) found.push(`${table}.${name}: a column the types lack`);
    }
    for (const [name, column] of columns) {
      const actual = stored.get(name);
      const where = `${table}.${name}`;
      if (!actual) {
        found.push(`${where}: in the types, not in the database`);
        continue;
      }
      if (column.nullable === actual.not_null) {
        found.push(
          `${where}: the types say ${column.nullable ? 'nullable' : 'not null'}, the database the other`,
        );
      }
      const kind = kindOfCatalog(actual, enums);
      if (!kind)
        found.push(`${where}: database type ${actual.type_name} has no kind here; add it to KIND_OF_PG_TYPE`);
      else if (kind !== 'any' && !column.kinds.includes(kind) && !column.kinds.includes('any')) {
        found.push(
          `${where}: the types read ${column.kinds.join(' | ')}, the database ${actual.type_name} (${kind})`,
        );
      }
      if (actual.generated && column.insert !== 'never') {
        found.push(`${where}: generated by the database, so its insert type must be never (GeneratedAlways)`);
      }
      const mayBeLeftOut = actual.has_default || !actual.not_null || actual.generated;
      if (column.insert === 'optional' && !mayBeLeftOut) {
        found.push(`${where}: the types let an insert leave it out, but it is not null without a default`);
      }
    }
  }
  return found;
}

describe('the row types', () => {
  let database: Database;
  let types: Tables;
  beforeAll(async () => {
    [database, types] = await Promise.all([openTestDatabase(), tablesOfTypes()]);
  }, 120_000);
  afterAll(() => database.close());

  it('are read from the compiler, tables added by other files included', () => {
    expect(types.get('sites')?.get('domain')).toEqual({
      nullable: false,
      kinds: ['string'],
      insert: 'required',
    });
    expect(types.get('webhooks')?.size).toBeGreaterThan(0);
    expect(types.get('outbox_events')?.has('dispatched_at')).toBe(true);
    expect(types.get('events')?.get('path')).toEqual({ nullable: true, kinds: ['string'], insert: 'never' });
    expect(types.get('shared_links')?.get('revoked_at')).toEqual({
      nullable: true,
      kinds: ['Date'],
      insert: 'required',
    });
    expect(types.get('goals')?.get('sort_order')?.insert).toBe('optional');
  });

  it('match every table and column of the migrated database', async () => {
    const { rows } = await sql<{ name: string }>`
      select t.typname as name from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where t.typtype = 'e' and n.nspname = current_schema()`.execute(database.db);
    const enums = new Set(rows.map((row) => row.name));
    expect(
      differences(types, await tablesOfDatabase(database), enums),
      'db/*types.ts differ from migrations/: change the types to what the migrations made',
    ).toEqual([]);
  });
});
