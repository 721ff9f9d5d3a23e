/**
 * Deletes from ClickHouse what was deleted in PostgreSQL (the queue of migrations/037): one
 * lightweight DELETE per stream and site, of the rows named and, for a detached row, only its
 * versions older than the copy without the person. The statement returns once ClickHouse has
 * applied it (lightweight deletes wait by default); on a cluster it runs on every node.
 */
import type { ClickHouse } from './connection.js';
import { type Deletion, STREAMS, type Stream } from './ship-batches.query.js';
import { ROW_KEY_SQL } from './traffic-columns.js';

/** Every version: above any ship sequence number. */
const ALL_VERSIONS = '18446744073709551615';

export async function applyDeletions(ch: ClickHouse, stream: Stream, deletions: Deletion[]): Promise<void> {
  const bySite = new Map<string, Deletion[]>();
  for (const deletion of deletions)
    bySite.set(deletion.siteId, [...(bySite.get(deletion.siteId) ?? []), deletion]);
  const table = ch.cluster
    ? `${ch.database}.${stream}_local ON CLUSTER ${ch.cluster}`
    : `${ch.database}.${stream}`;
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
    const table = ch.cluster
      ? `${ch.database}.${stream}_local ON CLUSTER ${ch.cluster}`
      : `${ch.database}.${stream}`;
    await ch.client.command({
      query: `DELETE FROM ${table} WHERE site_id = {site:UUID}`,
      query_params: { site: siteId },
    });
  }
}
