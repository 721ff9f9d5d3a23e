/**
 * The shipper: copies committed traffic rows from PostgreSQL to ClickHouse, stream by stream, in
 * ship order (ship-batches.query.ts). Safe in any number of processes: a stream is copied by the
 * worker holding its lease. Each batch is inserted with a deduplication token made from its first
 * and last place in ship order, which name exactly its rows (they are final), so a batch sent
 * again after a crash is dropped by ClickHouse; the cursor moves only once ClickHouse has
 * answered. Failures back off, and are logged once when they begin and once when they end.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { Clock } from '../lib/clock.js';
import type { ClickHouse } from './connection.js';
import {
  applyDeletions,
  deleteExpiredRows,
  deletePersonRows,
  deleteSiteRows,
  type PersonIds,
  type RetentionDelete,
} from './deletions.query.js';
import {
  advanceStream,
  type Batch,
  claimStream,
  type Deletion,
  forgetDeletions,
  forgetSiteDeletions,
  hasDeletions,
  oldestUnshipped,
  readBatch,
  readDeletions,
  STREAMS,
  type Stream,
} from './ship-batches.query.js';

/** Rows per insert: big enough for ClickHouse to like, small enough to bound a retry. */
export const SHIP_BATCH_ROWS = 5_000;
/** A lease outlives the slowest insert the client allows (its request timeout, 30 s). */
const LEASE_MS = 60_000;
const MAX_BACKOFF_MS = 60_000;

/** How long to wait after the nth failure in a row: 1 s, doubling, at most a minute. */
export const backoffMs = (failures: number) => Math.min(MAX_BACKOFF_MS, 1000 * 2 ** (failures - 1));

export interface ShipReport {
  shipped: Record<Stream, number>;
}

export interface ShipperLog {
  warn(message: string): void;
  info(message: string): void;
}

export function createShipper(deps: {
  db: Kysely<DB>;
  clock: Clock;
  clickhouse: ClickHouse;
  log?: ShipperLog;
}) {
  const { db, clock, clickhouse } = deps;
  const worker = randomUUID();
  let failures = 0;
  let retryAt = 0;

  const insert = (stream: Stream, batch: Batch) =>
    clickhouse.client.insert({
      // The token is written into the statement: the in-process engine keeps settings sent
      // with a call for the calls after it (connection.ts).
      table: `${clickhouse.database}.${stream} SETTINGS insert_deduplication_token = '${stream}:${batch.first.xid}.${batch.first.seq}-${batch.last.xid}.${batch.last.seq}'`,
      values: batch.rows,
      format: 'JSONEachRow',
    });

  /**
   * Applies a stream's queued deletions (up to `maxBatches` of SHIP_BATCH_ROWS), under the
   * stream's lease, after its copies: a row copied in a batch read before its deletion committed
   * is deleted after that batch has landed.
   */
  /**
   * Runs `work` holding every stream's lease, so no batch read before it lands after it; false
   * when another worker holds a stream (ask again later).
   */
  async function holdingEveryStream(work: () => Promise<void>): Promise<boolean> {
    const now = clock.now();
    const held: Stream[] = [];
    try {
      for (const stream of STREAMS) {
        if (!(await claimStream(db, stream, worker, now, new Date(now.getTime() + LEASE_MS)))) return false;
        held.push(stream);
      }
      await work();
      return true;
    } finally {
      for (const stream of held) await advanceStream(db, stream, worker, null, 0, clock.now());
    }
  }

  async function deleteStream(stream: Stream, maxBatches: number): Promise<number> {
    let applied = 0;
    for (let i = 0; i < maxBatches; i++) {
      const now = clock.now();
      if (!(await claimStream(db, stream, worker, now, new Date(now.getTime() + LEASE_MS)))) return applied;
      let deletions: Deletion[] = [];
      try {
        deletions = await readDeletions(db, stream, SHIP_BATCH_ROWS);
        await applyDeletions(clickhouse, stream, deletions);
        await forgetDeletions(
          db,
          deletions.map((deletion) => deletion.id),
        );
      } finally {
        await advanceStream(db, stream, worker, null, 0, clock.now());
      }
      applied += deletions.length;
      if (deletions.length < SHIP_BATCH_ROWS) return applied;
    }
    return applied;
  }

  /** Copies one stream until it is caught up or `maxBatches` were sent; answers the rows sent. */
  async function shipStream(stream: Stream, maxBatches: number): Promise<number> {
    let sent = 0;
    for (let i = 0; i < maxBatches; i++) {
      const now = clock.now();
      const cursor = await claimStream(db, stream, worker, now, new Date(now.getTime() + LEASE_MS));
      if (!cursor) return sent; // another worker is copying it
      let batch: Batch | null = null;
      try {
        batch = await readBatch(db, stream, cursor, SHIP_BATCH_ROWS);
        if (batch) await insert(stream, batch);
      } catch (error) {
        await advanceStream(db, stream, worker, null, 0, clock.now());
        throw error;
      }
      await advanceStream(db, stream, worker, batch?.last ?? null, batch?.rows.length ?? 0, clock.now());
      if (!batch) return sent;
      sent += batch.rows.length;
      if (batch.rows.length < SHIP_BATCH_ROWS) return sent;
    }
    return sent;
  }

  return {
    /** One round over every stream; skipped while backing off after a failure. */
    async shipOnce({ maxBatches = 20 }: { maxBatches?: number } = {}): Promise<ShipReport | null> {
      if (clock.now().getTime() < retryAt) return null;
      const shipped = {} as Record<Stream, number>;
      try {
        // Visits and links first: an event's report reads its visit's row.
        for (const stream of ['visits', 'identity_links', 'events', 'crawler_hits'] as const) {
          shipped[stream] = await shipStream(stream, maxBatches);
          await deleteStream(stream, maxBatches);
        }
      } catch (error) {
        failures += 1;
        retryAt = clock.now().getTime() + backoffMs(failures);
        if (failures === 1)
          deps.log?.warn(
            `ClickHouse shipping failed (${describeFailure(error)}); traffic is kept in PostgreSQL and copied once ClickHouse answers`,
          );
        throw error;
      }
      if (failures > 0) deps.log?.info(`ClickHouse shipping resumed after ${failures} failed attempts`);
      failures = 0;
      retryAt = 0;
      return { shipped };
    },

    /** Copies everything committed so far (tests, and the CLI before a benchmark). */
    async shipAll(): Promise<void> {
      for (const stream of STREAMS) {
        while ((await shipStream(stream, 1000)) > 0);
        while ((await deleteStream(stream, 1000)) > 0);
      }
    },

    /** Seconds since the oldest row not yet copied was written, per stream (0: caught up). */
    async lagSeconds(): Promise<Record<Stream, number>> {
      const now = clock.now().getTime();
      const lags = await Promise.all(STREAMS.map((stream) => oldestUnshipped(db, stream)));
      return Object.fromEntries(
        STREAMS.map((stream, i) => {
          const at = lags[i];
          return [stream, at ? Math.max(0, Math.round((now - at.getTime()) / 1000)) : 0];
        }),
      ) as Record<Stream, number>;
    },

    /**
     * Applies the queued deletions now; answers whether none of the site's is left (another
     * worker may hold a stream, or a deletion may not have committed yet: ask again later).
     * Throws when ClickHouse fails, so what depends on it (an erasure) does not complete.
     */
    async settleDeletions(siteId: string): Promise<boolean> {
      for (const stream of STREAMS) while ((await deleteStream(stream, 1000)) > 0);
      return !(await hasDeletions(db, siteId));
    },

    /**
     * Deletes every row of an erased site from ClickHouse, holding every stream's lease so no
     * copy of its rows lands afterwards (PostgreSQL no longer has any by then). Answers false
     * when another worker holds a stream: ask again later.
     */
    eraseSite: (siteId: string) =>
      holdingEveryStream(async () => {
        await deleteSiteRows(clickhouse, siteId);
        await forgetSiteDeletions(db, siteId);
      }),

    /**
     * Deletes every copy naming a person (privacy erasure), holding every stream's lease as
     * `eraseSite` does. Answers false when another worker holds a stream.
     */
    erasePerson: (siteId: string, ids: PersonIds) =>
      holdingEveryStream(() => deletePersonRows(clickhouse, siteId, ids)),

    /** Applies retention rules in ClickHouse (retention/clickhouse-rules.ts), as `eraseSite` does. */
    applyRetention: (rules: RetentionDelete[]) =>
      holdingEveryStream(async () => {
        for (const rule of rules) await deleteExpiredRows(clickhouse, rule);
      }),

    /** Whether the last round failed and the shipper is waiting to try again. */
    failing: () => failures > 0,
  };
}

export type Shipper = ReturnType<typeof createShipper>;

/** An error's first line, with any credentials in a URL left out. */
export function describeFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (text.split('\n')[0] ?? '').replace(/\/\/[^/@\s]+@/g, '//').slice(0, 200);
}
