/**
 * Statements prepared once per connection. A statement whose text begins with `preparedAs(name)`
 * is sent to PostgreSQL as a named prepared statement (see `preparingPool`), so the server plans
 * it once per connection instead of on every call; its text must then never change (values go
 * in as parameters). PGlite reads the marker as the comment it is.
 */
import { sql } from 'kysely';
import type pg from 'pg';

const MARKER = /^\/\* prepared:([a-z_]+) \*\//;

export const preparedAs = (name: string) => {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`bad prepared statement name: ${name}`);
  return sql.raw(`/* prepared:${name} */`);
};

/** The pool as Kysely sees it, with marked statements sent as named prepared statements. */
export function preparingPool(pool: pg.Pool) {
  const clients = new WeakMap<pg.PoolClient, pg.PoolClient>();
  const wrap = (client: pg.PoolClient): pg.PoolClient => {
    const query = (text: string, values?: unknown[]) => {
      const name = MARKER.exec(text)?.[1];
      return name ? client.query({ name, text, values }) : client.query(text, values);
    };
    return Object.assign(Object.create(client), { query });
  };
  return {
    async connect() {
      const client = await pool.connect();
      let wrapped = clients.get(client);
      if (!wrapped) {
        wrapped = wrap(client);
        clients.set(client, wrapped);
      }
      return wrapped;
    },
    end: () => pool.end(),
  };
}
