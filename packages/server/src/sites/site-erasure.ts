/**
 * The erasure worker: once a site's deletion deadline passes, its data is deleted table by
 * table in bounded batches, then the site row itself. Every step is idempotent, so a crash
 * anywhere is repaired by running again; jobs are leased (site-erasure.store.ts), so several
 * worker processes can run this at once without doing the same work twice.
 */
import type { Kysely, Selectable } from 'kysely';
import { describeError } from '../db/errors.js';
import type { DB, SiteErasuresTable } from '../db/types.js';
import { deleteOwnedBatch, hasOwnedRows, type OwnedRows } from '../jobs/batched-delete.query.js';
import { type Clock, MINUTE_MS } from '../lib/clock.js';
import { newId } from '../lib/ids.js';
import * as store from './site-erasure.store.js';

const bySite = (table: OwnedRows['table'], key: readonly string[]): OwnedRows => ({
  table,
  ownerColumn: 'site_id',
  key,
});

/**
 * A site's rows in other tables, erased in this order before the site row. A feature that adds
 * a per-site table adds it here, children before parents (payments, webhook deliveries before
 * webhooks, bot tokens, …); the erasure test checks every entry against the schema.
 */
export const SITE_DATA: readonly OwnedRows[] = [
  // Attribution jobs go first, so no worker picks up a conversion that is about to disappear.
  bySite('attribution_jobs', ['site_id', 'event_id']),
  bySite('attribution_credits', ['site_id', 'event_id', 'model', 'source']),
  bySite('daily_revenue', ['site_id', 'day', 'model', 'source', 'currency']),
  bySite('refunds', ['site_id', 'id']),
  bySite('payments', ['site_id', 'id']),
  bySite('processor_events', ['site_id', 'provider', 'event_id']),
  bySite('processor_payment_aliases', ['site_id', 'provider', 'alias']),
  bySite('processor_connections', ['id']),
  bySite('crawler_hits', ['site_id', 'id']),
  bySite('daily_crawler_hits', ['site_id', 'day', 'crawler']),
  bySite('daily_crawler_paths', ['site_id', 'day', 'operator', 'path_key']),
  bySite('bot_tokens', ['id']),
  bySite('shared_link_access', ['token_hash']),
  bySite('shared_links', ['id']),
  bySite('events', ['site_id', 'event_id']),
  bySite('visits', ['site_id', 'id']),
  bySite('stats_visit_rollups', ['site_id', 'dimension', 'day', 'value']),
  bySite('stats_rollup_days', ['site_id', 'day']),
  bySite('stats_month_rollups', ['site_id', 'dimension', 'month', 'value']),
  bySite('stats_rollup_months', ['site_id', 'month']),
  bySite('stats_rollup_sites', ['site_id']),
  bySite('stats_goal_rollups', ['site_id', 'day', 'name']),
  bySite('stats_goal_value_rollups', ['site_id', 'day', 'name', 'currency']),
  bySite('stats_goal_rollup_days', ['site_id', 'day']),
  bySite('identity_links', ['site_id', 'person_key', 'visitor_id']),
  bySite('visitors', ['site_id', 'visitor_id']),
  bySite('daily_goal_completions', ['site_id', 'day', 'name']),
  bySite('daily_goal_properties', ['site_id', 'name', 'day', 'pair']),
  bySite('daily_visits', ['site_id', 'day', 'source_kind', 'session_ai_source']),
  bySite('goals', ['site_id', 'id']),
  bySite('funnels', ['site_id', 'id']),
  bySite('outbox_events', ['site_id', 'id']),
  bySite('webhook_deliveries', ['site_id', 'id']),
  bySite('webhooks', ['site_id', 'id']),
  bySite('privacy_requests', ['id']),
  // An import's staged rows go with it (foreign keys); its file's chunks once it has ended.
  bySite('imported_days', ['import_id', 'dimension', 'day', 'value']),
  bySite('imports', ['id']),
  bySite('api_keys', ['id']),
];

export const ERASURE_LEASE_MS = 5 * MINUTE_MS;
/** After a failure the job waits this long before any worker tries it again. */
export const ERASURE_RETRY_DELAY_MS = MINUTE_MS;
const DUE_SITES_PER_RUN = 100;

export interface ErasureRunOptions {
  /** Rows per delete statement. */
  batchSize?: number;
  /** Delete statements per run, across all jobs; the rest waits for the next run. */
  maxBatches?: number;
  workerId?: string;
}

export interface ErasureRunReport {
  /** Snippet keys of sites whose deadline passed and whose erasure this run began. */
  started: string[];
  /** Snippet keys of sites fully erased by this run. */
  erased: string[];
  /** Snippet keys of jobs this run worked on but left for a later run (budget spent, or taken over). */
  unfinished: string[];
  failed: { snippet_key: string; error: string }[];
}

type Outcome = 'erased' | 'paused' | 'lost';

/** The step name of the last step, deleting the site row itself. */
const SITE_ROW_STEP = 'sites';

type ClaimedJob = Pick<Selectable<SiteErasuresTable>, 'site_id' | 'step'>;

/** ClickHouse's copy of the traffic, when it is on: a site is erased there before its row goes. */
export interface SiteErasureInClickHouse {
  eraseSite(siteId: string): Promise<boolean>;
}

export function createSiteErasure({
  db,
  clock,
  clickhouse,
}: {
  db: Kysely<DB>;
  clock: Clock;
  clickhouse?: SiteErasureInClickHouse;
}) {
  const leaseUntil = () => new Date(clock.now().getTime() + ERASURE_LEASE_MS);

  /** Where a claimed job continues: the table it recorded, or the start when it has none (or it left the list). */
  function resumeIndex(step: string | null): number {
    if (step === SITE_ROW_STEP) return SITE_DATA.length;
    return Math.max(
      0,
      SITE_DATA.findIndex((target) => target.table === step),
    );
  }

  /** The first table still holding rows of the site (written after its turn), or -1. */
  async function firstTableWithRows(siteId: string): Promise<number> {
    for (const [index, target] of SITE_DATA.entries()) {
      if (await hasOwnedRows(db, target, siteId)) return index;
    }
    return -1;
  }

  /**
   * Works through one claimed job until it is done, the budget runs out or the lease is lost.
   * Each batch either deletes rows or finishes a table and records the next step, so even a
   * budget of one batch per run always makes progress.
   */
  async function eraseSite(
    job: ClaimedJob,
    workerId: string,
    budget: { batches: number },
    batchSize: number,
  ) {
    const siteId = job.site_id;
    const recordStep = (step: string) => store.renewLease(db, siteId, workerId, leaseUntil(), step);
    let index = resumeIndex(job.step);
    for (;;) {
      while (index < SITE_DATA.length) {
        const target = SITE_DATA[index] as OwnedRows;
        if (budget.batches <= 0) return 'paused' satisfies Outcome;
        budget.batches -= 1;
        const deleted = await deleteOwnedBatch(db, target, siteId, batchSize);
        // A short batch usually means done; the check catches rows another worker left behind.
        const isTableDone = deleted < batchSize && !(await hasOwnedRows(db, target, siteId));
        if (isTableDone) index += 1;
        const step = SITE_DATA[index]?.table ?? SITE_ROW_STEP;
        if (!(await recordStep(step))) return 'lost' satisfies Outcome;
      }
      // Rows written after their table's turn (a late ingest batch) send the job back there.
      const leftover = await firstTableWithRows(siteId);
      if (leftover === -1) break;
      index = leftover;
    }
    if (budget.batches <= 0) return 'paused' satisfies Outcome;
    budget.batches -= 1;
    // The erasure completes only once ClickHouse has deleted the site too; a failure retries.
    if (clickhouse && !(await clickhouse.eraseSite(siteId))) return 'paused' satisfies Outcome;
    await store.deleteErasedSite(db, siteId);
    await store.finishErasure(db, siteId, workerId, clock.now());
    return 'erased' satisfies Outcome;
  }

  /** One pass of the worker: start due erasures, then advance jobs within the batch budget. */
  async function runErasureOnce(options: ErasureRunOptions = {}): Promise<ErasureRunReport> {
    const { batchSize = 1000, maxBatches = 200, workerId = newId() } = options;
    const report: ErasureRunReport = { started: [], erased: [], unfinished: [], failed: [] };
    report.started = await db
      .transaction()
      .execute((trx) => store.startDueErasures(trx, clock.now(), DUE_SITES_PER_RUN));
    const budget = { batches: maxBatches };
    while (budget.batches > 0) {
      const job = await store.claimErasure(db, workerId, clock.now(), leaseUntil());
      if (!job) break;
      try {
        const outcome: Outcome = await eraseSite(job, workerId, budget, batchSize);
        if (outcome === 'erased') report.erased.push(job.snippet_key);
        else report.unfinished.push(job.snippet_key);
        if (outcome === 'paused')
          await store.releaseErasure(db, job.site_id, workerId, { retryAt: null, error: null });
      } catch (error) {
        const message = describeError(error);
        report.failed.push({ snippet_key: job.snippet_key, error: message });
        const retryAt = new Date(clock.now().getTime() + ERASURE_RETRY_DELAY_MS);
        await store.releaseErasure(db, job.site_id, workerId, { retryAt, error: message.slice(0, 1000) });
      }
    }
    return report;
  }

  return { runErasureOnce };
}
