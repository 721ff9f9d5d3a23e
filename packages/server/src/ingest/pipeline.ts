/**
 * The ingest pipeline: the steps every tracker payload and server event goes through, in order,
 * and what each may end an item with. The steps are done where they are cheapest: the route
 * refuses before parsing, the service drops and enriches one item at a time, the batch writer
 * classifies a batch in Node, and one call of the database (`touchtrail_ingest`) does the rest
 * in one transaction. pipeline.test.ts holds this list to the files and SQL it names, and to the
 * order in which `touchtrail_ingest` calls its functions.
 */

/** Why an item was not stored. The closed list: /metrics counts each one. */
export const DROP_REASONS = [
  'rate_limited',
  'too_large',
  'invalid',
  'bot',
  'unknown_site',
  'site_deleted',
] as const;
export type DropReason = (typeof DROP_REASONS)[number];

/** What the batch answers for an item: stored, stored already, or dropped by the database. */
export type CommitOutcome = 'recorded' | 'duplicate' | 'unknown_site' | 'site_deleted';

/**
 * What became of an item, as /metrics counts it: `recorded` and `duplicate` are acknowledged,
 * `dropped` names its reason, `failed` (the database failed) is answered 503 for a retry.
 */
export const ITEM_OUTCOMES = ['recorded', 'duplicate', 'dropped', 'failed'] as const;
export type ItemOutcome = (typeof ITEM_OUTCOMES)[number];

/** Told of every item's end and every batch written; the metrics module listens. */
export interface IngestObserver {
  item(outcome: Exclude<ItemOutcome, 'dropped'>): void;
  dropped(reason: DropReason): void;
  batch(written: { items: number; seconds: number }): void;
}

export interface IngestStep {
  name: string;
  /**
   * `route`: before the body reaches the service; `item`: per item in the service; `batch`:
   * per batch in Node (batch-writer.ts); `database`: inside the one call per batch.
   */
  runs: 'route' | 'item' | 'batch' | 'database';
  /** The file (under src/) or the SQL function (sql/ingest/) that does it. */
  by: string;
  /** What the step may end an item with, instead of passing it on. */
  ends?: readonly (DropReason | 'duplicate' | 'stale_site_facts')[];
}

export const INGEST_STEPS = [
  { name: 'limit_rate', runs: 'route', by: 'http/rate-limit.ts', ends: ['rate_limited'] },
  { name: 'parse', runs: 'route', by: 'ingest/collect.schemas.ts', ends: ['too_large', 'invalid'] },
  // Tracker payloads only: a missing user agent or a known bot's.
  { name: 'drop_bots', runs: 'item', by: 'ingest/device.ts', ends: ['bot'] },
  // Server events only: a timestamp more than a day ahead.
  { name: 'check_time', runs: 'item', by: 'ingest/enrich.ts', ends: ['invalid'] },
  // Device, location, personal data removed from URL and properties, identities hashed.
  { name: 'enrich', runs: 'item', by: 'ingest/enrich.ts' },
  { name: 'group_commit', runs: 'batch', by: 'lib/group-commit.ts' },
  // Source, campaign and money in minor units, with the site facts this process knows.
  { name: 'classify', runs: 'batch', by: 'ingest/batch-writer.ts' },
  { name: 'take_writer_locks', runs: 'database', by: 'touchtrail_take_writer_locks' },
  // Stale site facts send the item back to `classify` with the current facts.
  {
    name: 'resolve_site',
    runs: 'database',
    by: 'touchtrail_ingest_outcomes',
    ends: ['unknown_site', 'site_deleted', 'stale_site_facts'],
  },
  { name: 'drop_duplicates', runs: 'database', by: 'touchtrail_ingest_outcomes', ends: ['duplicate'] },
  { name: 'build_visits', runs: 'database', by: 'touchtrail_ingest_visits' },
  { name: 'register_goals', runs: 'database', by: 'touchtrail_ingest_register_goals' },
  { name: 'record_events', runs: 'database', by: 'touchtrail_record_events' },
  { name: 'roll_up_visits', runs: 'database', by: 'touchtrail_ingest_visit_rollups' },
  { name: 'queue_outbox', runs: 'database', by: 'touchtrail_ingest_outbox' },
  { name: 'verify_site', runs: 'database', by: 'touchtrail_ingest' },
] as const satisfies readonly IngestStep[];
