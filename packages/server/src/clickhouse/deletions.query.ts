/**
 * Deletes from ClickHouse what was deleted in PostgreSQL (the queue of migrations/037): one
 * lightweight DELETE per stream and site, of the rows named and, for a detached row, only its
 * versions older than the copy without the person. The statement returns once ClickHouse has
 * applied it (lightweight deletes wait by default); on a cluster it runs on every node.
 */
import type { ClickHouse } from './connection.js';
import { clickHouseTime } from './schema.query.js';
import { type Deletion, STREAMS, type Stream } from './ship-batches.query.js';
import { ROW_KEY_SQL } from './traffic-columns.js';

/** Every version: above any ship sequence number. */
const ALL_VERSIONS = '18446744073709551615';

/** The table a DELETE names: on a cluster, each node's own, on every node. */
const deleteTarget = (ch: ClickHouse, stream: Stream) =>
  ch.cluster ? `${ch.database}.${stream}_local ON CLUSTER ${ch.cluster}` : `${ch.database}.${stream}`;

export async function applyDeletions(ch: ClickHouse, stream: Stream, deletions: Deletion[]): Promise<void> {
  const bySite = new Map<string, Deletion[]>();
  for (const deletion of deletions)
    bySite.set(deletion.siteId, [...(bySite.get(deletion.siteId) ?? []), deletion]);
  const table = deleteTarget(ch, stream);
  const key = ROW_KEY_SQL[stream];
  for (const [siteId, rows] of bySite) {
    await ch.client.command({
      query: `DELETE FROM ${table}
        WHERE site_id = {site:UUID} AND indexOf({keys:Array(String)}, ${key}) > 0
          AND ship_seq < toUInt64(arrayElement({before:Array(String)}, indexOf({keys:Array(String)}, ${key})))`,
      query_params: {
        site: siteId,
        keys: rows.map((row) => row.key),
        before: rows.map((row) => (row.beforeSeq === null ? ALL_VERSIONS : String(row.beforeSeq))),
      },
    });
  }
}

/** Every row of a site, in every table (site erasure). */
export async function deleteSiteRows(ch: ClickHouse, siteId: string): Promise<void> {
  for (const stream of STREAMS) {
    await ch.client.command({
      query: `DELETE FROM ${deleteTarget(ch, stream)} WHERE site_id = {site:UUID}`,
      query_params: { site: siteId },
    });
  }
}

/** A person's ids: the visitor ids and person keys an erasure reaches (privacy/scope.store.ts). */
export interface PersonIds {
  visitors: string[];
  personKeys: string[];
}

/**
 * Every copy naming a person, in every table (privacy erasure). The queue of migration 037 only
 * names rows PostgreSQL still had; copied pageviews PostgreSQL let go of are found here by id.
 * An event kept without the person (a payment conversion) keeps its copy without the ids.
 */
export async function deletePersonRows(ch: ClickHouse, siteId: string, ids: PersonIds): Promise<void> {
  const names = `(has({visitors:Array(String)}, ifNull(visitor_id, ''))
    OR has({keys:Array(String)}, ifNull(person_key, '')))`;
  const where: Record<Stream, string> = {
    events: names,
    visits: `has({visitors:Array(String)}, visitor_id)`,
    identity_links: names,
    crawler_hits: 'false',
  };
  for (const stream of STREAMS) {
    if (where[stream] === 'false') continue;
    await ch.client.command({
      query: `DELETE FROM ${deleteTarget(ch, stream)} WHERE site_id = {site:UUID} AND ${where[stream]}`,
      query_params: { site: siteId, visitors: ids.visitors, keys: ids.personKeys },
    });
  }
}

/** Rows of the streams that leave PostgreSQL once copied, past a site's own rule or the installation's. */
export interface RetentionDelete {
  stream: 'events' | 'crawler_hits';
  /** One site's rows, or every site's. */
  siteId: string | null;
  /** Event types (events only). */
  types?: readonly string[];
  /** Rows that both happened and arrived before this go. */
  cutoff: Date;
}

/** Applies one retention rule in ClickHouse (retention/clickhouse-rules.ts says which). */
export async function deleteExpiredRows(ch: ClickHouse, rule: RetentionDelete): Promise<void> {
  const site = rule.siteId === null ? '' : 'site_id = {site:UUID} AND ';
  const types = rule.types ? 'has({types:Array(String)}, type) AND ' : '';
  await ch.client.command({
    query: `DELETE FROM ${deleteTarget(ch, rule.stream)}
      WHERE ${site}${types}occurred_at < {cutoff:DateTime64(3, 'UTC')} AND received_at < {cutoff:DateTime64(3, 'UTC')}`,
    query_params: {
      ...(rule.siteId === null ? {} : { site: rule.siteId }),
      ...(rule.types ? { types: rule.types } : {}),
      cutoff: clickHouseTime(rule.cutoff),
    },
  });
}
