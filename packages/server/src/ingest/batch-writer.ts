/**
 * Writes one batch of ingest items with one call of the database (ingest.store.ts), which takes
 * the writers' advisory locks (lockKeysOf), drops duplicates, builds visits and writes the rest.
 * What depends only on the item and its site is worked out here first: the source
 * classification (which needs the site's domain and cookie apex to tell internal navigation)
 * and money in minor units (which needs the site's currency). Those site facts are kept per
 * process; the batch checks them against the sites table and sends back the items of sites
 * whose facts changed, which are enriched again and written in a second call.
 */
import type { Kysely } from 'kysely';
import { eventLockKey, sortedLockIds, visitorLockKey } from '../db/advisory-locks.js';
import type { DB } from '../db/types.js';
import { GOALS_PER_SITE, goalNameProblem } from '../goals/goal-names.js';
import type { Clock } from '../lib/clock.js';
import { toMinorUnits } from '../lib/money.js';
import { classifySource } from '../sources/classify-source.js';
import * as store from './ingest.store.js';
import type { IngestItem } from './ingest-item.js';
import type { CommitOutcome } from './pipeline.js';
import { campaignOf, sourceKeyOf } from './sessionize.js';

/** Sites whose facts a process keeps; beyond that the oldest are forgotten (and read again). */
const KNOWN_SITES_CAP = 10_000;
/** Calls for one batch while its sites' facts keep changing; beyond that the batch fails. */
const MAX_CALLS = 3;

/**
 * What a writer holds while it writes an item: its event id, so that two processes given one
 * event id at once store it once and only the first builds a visit from it; and its visitor,
 * so that they never build two visits for one arrival.
 */
function lockKeysOf(item: IngestItem): string[] {
  const event = eventLockKey(item.snippetKey, item.eventId);
  return item.visitorId ? [event, visitorLockKey(item.snippetKey, item.visitorId)] : [event];
}

export function createBatchWriter({ db, clock }: { db: Kysely<DB>; clock: Clock }) {
  const knownSites = new Map<string, store.SiteFacts>();

  const remember = (facts: store.SiteFacts) => {
    knownSites.delete(facts.snippet_key);
    if (knownSites.size >= KNOWN_SITES_CAP) knownSites.delete(knownSites.keys().next().value as string);
    knownSites.set(facts.snippet_key, facts);
  };

  return async function writeBatch(items: IngestItem[]): Promise<CommitOutcome[]> {
    const outcomes: CommitOutcome[] = items.map(() => 'unknown_site');
    let pending = items.map((_, index) => index);
    for (let call = 1; pending.length > 0; call += 1) {
      if (call > MAX_CALLS) throw new Error('the settings of a site changed during every call for its batch');
      const batch = pending.map((index) => items[index] as IngestItem);
      const facts = new Map<string, store.SiteFacts>();
      for (const item of batch) {
        const known = knownSites.get(item.snippetKey);
        if (known) facts.set(item.snippetKey, known);
      }
      const answer = await store.ingestBatch(db, {
        lockIds: sortedLockIds(batch.flatMap(lockKeysOf)),
        facts: [...facts.values()],
        rows: batch.map((item, index) => rowOf(item, index + 1, facts.get(item.snippetKey))),
        now: clock.now(),
        goalLimit: GOALS_PER_SITE,
      });
      for (const site of answer.staleSites) remember(site);
      pending = pending.filter((itemIndex, index) => {
        const outcome = answer.outcomes[index] as store.BatchOutcome;
        if (outcome === 'stale_site_facts') return true;
        outcomes[itemIndex] = outcome;
        return false;
      });
    }
    return outcomes;
  };
}

/**
 * The item as the batch reads it. Without its site's facts the item can only come back stale
 * (or unknown), so nothing that needs them is worked out.
 */
function rowOf(item: IngestItem, ord: number, site: store.SiteFacts | undefined): store.IngestRow {
  const row: store.IngestRow = {
    ord,
    snippet_key: item.snippetKey,
    origin: item.origin,
    type: item.type,
    event_id: item.eventId,
    url: item.url,
    occurred_ms: item.occurredAt.getTime(),
    received_ms: item.receivedAt.getTime(),
  };
  if (item.access) {
    row.account_id = item.access.accountId;
    if (item.access.siteId) row.site_ref = item.access.siteId;
  }
  if (item.visitorId) row.visitor_id = item.visitorId;
  if (item.personKey) row.person_key = item.personKey;
  if (item.emailKey) row.email_key = item.emailKey;
  if (item.name) {
    row.name = item.name;
    row.is_goal = item.type === 'event' && goalNameProblem(item.name) === null;
  }
  if (item.properties) row.properties = item.properties;
  if (item.type === 'engagement') row.engaged_seconds = Math.round(item.engagedMs / 1000);
  if (!site) return row;
  if (item.value) {
    const currency = item.value.currency ?? site.currency;
    row.currency = currency;
    row.value_minor = toMinorUnits(item.value.amount, currency);
  }
  // What a visit started by this item records: only browser pageviews and events start one.
  if (item.origin === 'browser' && (item.type === 'pageview' || item.type === 'event')) {
    const source = classifySource({
      referrer: item.referrer,
      url: item.url,
      siteDomain: site.domain,
      cookieApexDomain: site.cookie_apex_domain,
    });
    const campaign = campaignOf(item.url);
    const classification = source ?? { source_kind: 'unknown', session_ai_source: 'direct', source_name: '' };
    Object.assign(row, classification, item.device, item.location, {
      source_key: sourceKeyOf(source, campaign),
      campaign: campaign.utm_campaign,
      utm_source: campaign.utm_source,
      utm_medium: campaign.utm_medium,
      utm_content: campaign.utm_content,
      utm_term: campaign.utm_term,
      ref: campaign.ref,
    });
  }
  return row;
}
