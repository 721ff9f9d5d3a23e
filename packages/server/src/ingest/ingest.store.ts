/**
 * SQL of the ingest batch: one call of `touchtrail_ingest` (sql/ingest/09_ingest.sql)
 * per batch, in the transaction of that one statement: it takes the writers' advisory locks,
 * drops duplicates, builds the visits, registers goals, bumps the daily rollups, queues outbox
 * facts and marks sites verified. One round trip, so neither side waits on the other between
 * steps. The call is prepared once per connection (db/prepared.ts).
 */
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import type { EventsTable, IdentityLinksTable } from '../db/ingest-types.js';
import { preparedAs } from '../db/prepared.js';
import type { DB, SitesTable } from '../db/types.js';
import type { CommitOutcome } from './pipeline.js';

/** A transaction, or the pool (each statement its own transaction). */
type Trx = Transaction<DB> | Kysely<DB>;

/** An events row as ingest writes it: the database computes `path` (migration 023). */
export type EventRow = Omit<Selectable<EventsTable>, 'path' | 'ship_xid' | 'ship_seq'>;
export type IdentityLinkRow = Omit<Selectable<IdentityLinksTable>, 'ship_xid' | 'ship_seq'>;

/** What the server enriches a site's items with; the batch checks they still hold. */
export type SiteFacts = Pick<
  Selectable<SitesTable>,
  'snippet_key' | 'domain' | 'cookie_apex_domain' | 'currency'
>;

/**
 * One item as `touchtrail_ingest` reads it (the type `touchtrail_ingest_item`,
 * sql/ingest/01_types.sql); fields left out are null. Times are epoch milliseconds.
 */
export interface IngestRow {
  ord: number;
  snippet_key: string;
  account_id?: string;
  site_ref?: string;
  origin: 'browser' | 'server';
  type: EventsTable['type'];
  event_id: string;
  visitor_id?: string;
  person_key?: string;
  email_key?: string;
  name?: string;
  is_goal?: boolean;
  url: string;
  properties?: Record<string, unknown>;
  value_minor?: number;
  currency?: string;
  engaged_seconds?: number;
  occurred_ms: number;
  received_ms: number;
  source_kind?: string;
  session_ai_source?: string;
  source_name?: string;
  source_key?: string;
  campaign?: string;
  utm_source?: string;
  utm_medium?: string;
  utm_content?: string;
  utm_term?: string;
  ref?: string;
  device_type?: string;
  os?: string;
  browser?: string;
  country_code?: string;
  city?: string;
}

/**
 * The SQL types the TypeScript rows are read into, column by column in the types' order:
 * `jsonb_populate_recordset` fills a column the JSON does not name with null, so a field renamed
 * on one side only would be lost without an error. The `satisfies` clauses hold these to the
 * TypeScript rows; ingest.store.test.ts holds them to the types' columns in `pg_attribute`.
 */
export const SQL_ROW_TYPES = {
  touchtrail_ingest_item: {
    ord: 'integer',
    snippet_key: 'text',
    account_id: 'uuid',
    site_ref: 'uuid',
    origin: 'text',
    type: 'text',
    event_id: 'text',
    visitor_id: 'text',
    person_key: 'text',
    email_key: 'text',
    name: 'text',
    is_goal: 'boolean',
    url: 'text',
    properties: 'jsonb',
    value_minor: 'bigint',
    currency: 'text',
    engaged_seconds: 'integer',
    occurred_ms: 'double precision',
    received_ms: 'double precision',
    source_kind: 'text',
    session_ai_source: 'text',
    source_name: 'text',
    source_key: 'text',
    campaign: 'text',
    utm_source: 'text',
    utm_medium: 'text',
    utm_content: 'text',
    utm_term: 'text',
    ref: 'text',
    device_type: 'text',
    os: 'text',
    browser: 'text',
    country_code: 'text',
    city: 'text',
  } satisfies Record<keyof IngestRow, string>,
  touchtrail_event: {
    site_id: 'uuid',
    event_id: 'text',
    type: 'text',
    name: 'text',
    visitor_id: 'text',
    person_key: 'text',
    visit_id: 'uuid',
    occurred_at: 'timestamp with time zone',
    received_at: 'timestamp with time zone',
    url: 'text',
    properties: 'jsonb',
    value_minor: 'bigint',
    currency: 'text',
    origin: 'text',
  } satisfies Record<keyof EventRow, string>,
  touchtrail_identity_link: {
    site_id: 'uuid',
    person_key: 'text',
    visitor_id: 'text',
    created_at: 'timestamp with time zone',
  } satisfies Record<keyof IdentityLinkRow, string>,
};

/** What the batch answers for an item: one of the pipeline's, or sent back to be classified again. */
export type BatchOutcome = CommitOutcome | 'stale_site_facts';

/**
 * The SQL answers one letter per item (a batch of 500 answers 500 characters); named here, the
 * one place that reads them. The letters are written in sql/ingest/04_outcomes.sql.
 */
const OUTCOME_OF_LETTER: Record<string, BatchOutcome> = {
  r: 'recorded',
  d: 'duplicate',
  u: 'unknown_site',
  x: 'site_deleted',
  s: 'stale_site_facts',
};

export interface BatchResult {
  /** Per item, in order. */
  outcomes: BatchOutcome[];
  /** The current facts of the sites whose items came back stale. */
  staleSites: SiteFacts[];
}

export async function ingestBatch(
  db: Kysely<DB>,
  batch: { lockIds: string[]; facts: SiteFacts[]; rows: IngestRow[]; now: Date; goalLimit: number },
): Promise<BatchResult> {
  const result = await sql<{ outcomes: string; stale_sites: SiteFacts[] | null }>`${preparedAs('tt_ingest')}
    select outcomes, stale_sites from touchtrail_ingest(${batch.lockIds}::bigint[],
      ${JSON.stringify(batch.facts)}::jsonb, ${JSON.stringify(batch.rows)}::jsonb,
      ${batch.now}::timestamptz, ${batch.goalLimit}::integer)`.execute(db);
  const row = result.rows[0];
  if (!row || row.outcomes.length !== batch.rows.length)
    throw new Error('the ingest batch answered no outcome per item');
  const outcomes = Array.from(row.outcomes, (letter) => {
    const outcome = OUTCOME_OF_LETTER[letter];
    if (!outcome) throw new Error(`the ingest batch answered an unknown outcome ${JSON.stringify(letter)}`);
    return outcome;
  });
  return { outcomes, staleSites: row.stale_sites ?? [] };
}

/**
 * Events and identity links in the caller's transaction, as the ingest batch writes them
 * (`touchtrail_record_events`): a stored event id is skipped, and only inserted events reach the
 * goal rollups and get attribution jobs. Payments write their conversion this way.
 */
export async function recordEvents(
  trx: Trx,
  events: EventRow[],
  links: IdentityLinkRow[],
  now: Date,
): Promise<void> {
  await sql`select touchtrail_record_events(
      array(select jsonb_populate_recordset(null::touchtrail_event, ${JSON.stringify(events)}::jsonb)),
      array(select jsonb_populate_recordset(null::touchtrail_identity_link, ${JSON.stringify(links)}::jsonb)),
      ${now}::timestamptz)`.execute(trx);
}
