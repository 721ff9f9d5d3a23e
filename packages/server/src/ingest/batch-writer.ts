/**
 * Writes one batch of ingest items in one transaction: resolves their sites, drops duplicates
 * (same event id), builds visits, links identities, registers goals, bumps the daily rollups,
 * queues outbox facts and marks sites verified. Writers are serialised per event id and per
 * visitor with advisory locks (lockKeysOf). Whatever the batch holds, that is four short round
 * trips to the database (ingest.store.ts), and one more when a goal name is new to this process.
 */
import { randomUUID } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { sortedLockIds } from '../db/advisory-locks.js';
import type { DB } from '../db/types.js';
import { GOALS_PER_SITE, goalNameProblem } from '../goals/goal-names.js';
import type { Clock } from '../lib/clock.js';
import { toMinorUnits } from '../lib/money.js';
import { classifySource } from '../sources/classify-source.js';
import * as store from './ingest.store.js';
import type { IngestItem, IngestOutcome } from './ingest-item.js';
import { campaignOf, sourceKeyOf, startsNewVisit, VISIT_IDLE_MS } from './sessionize.js';

type Site = store.SiteRow;

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** Goal names known to be registered, per process; names are never unregistered. */
const KNOWN_GOALS_CAP = 100_000;

/** A server event's key must reach the site; a site outside it is answered like an unknown one. */
function isCovered(site: Site, item: IngestItem): boolean {
  if (!item.access) return true;
  return (
    site.account_id === item.access.accountId &&
    (item.access.siteId === null || item.access.siteId === site.id)
  );
}

/**
 * What a writer holds while it reads and writes an item: its event id, so that two processes
 * given one event id at once store it once and only the first builds a visit from it; and its
 * visitor, so that they never build two visits for one arrival.
 */
function lockKeysOf(item: IngestItem): string[] {
  const event = `${item.snippetKey}|event:${item.eventId}`;
  return item.visitorId ? [event, `${item.snippetKey}|visitor:${item.visitorId}`] : [event];
}

/** Rows of one batch, across its sites. */
interface BatchRows extends store.BatchWrites {
  goalNames: Map<string, Set<string>>;
}

export function createBatchWriter({ db, clock }: { db: Kysely<DB>; clock: Clock }) {
  const knownGoals = new Set<string>();

  return async function writeBatch(items: IngestItem[]): Promise<IngestOutcome[]> {
    const outcomes: IngestOutcome[] = items.map(() => 'unknown_site');
    let registered: string[] = [];
    await db.connection().execute(async (connection) => {
      const now = clock.now();
      try {
        await store.beginAndLock(connection, sortedLockIds(items.flatMap(lockKeysOf)));
        const state = await store.loadBatchState(
          connection,
          items.map((item) => ({ snippetKey: item.snippetKey, eventId: item.eventId })),
          uniqueBy(
            items.flatMap((item) =>
              item.visitorId ? [{ snippetKey: item.snippetKey, visitorId: item.visitorId }] : [],
            ),
            (key) => `${key.snippetKey}|${key.visitorId}`,
          ),
        );
        const rows = collectRows(items, outcomes, state, now);
        for (const [siteId, names] of rows.goalNames) {
          const unknown = [...names].filter((name) => !knownGoals.has(`${siteId}|${name}`));
          const done = await store.registerGoals(connection, siteId, unknown, now, GOALS_PER_SITE);
          registered = registered.concat(done.map((name) => `${siteId}|${name}`));
        }
        await store.writeBatch(connection, rows, now);
        await sql`commit`.execute(connection);
      } catch (error) {
        // End the failed transaction before the connection goes back to the pool. A lost
        // connection rolls back on its own.
        await sql`rollback`.execute(connection).catch(() => {});
        throw error;
      }
    });
    // Only what committed is remembered.
    if (knownGoals.size + registered.length > KNOWN_GOALS_CAP) knownGoals.clear();
    for (const key of registered) knownGoals.add(key);
    return outcomes;
  };
}

/** Sorts the batch's items by site, drops duplicates and builds the rows to write. */
function collectRows(
  items: IngestItem[],
  outcomes: IngestOutcome[],
  state: store.BatchState,
  now: Date,
): BatchRows {
  const bySite = new Map<Site, number[]>();
  items.forEach((item, index) => {
    const site = state.sites.find((candidate) => candidate.snippet_key === item.snippetKey);
    if (!site || !isCovered(site, item)) return;
    if (site.deleted_at) {
      outcomes[index] = 'site_deleted';
      return;
    }
    bySite.set(site, [...(bySite.get(site) ?? []), index]);
  });
  const rows: BatchRows = {
    events: [],
    visits: [],
    visitors: [],
    links: [],
    dailyVisits: [],
    outbox: [],
    verifiedSiteIds: [],
    goalNames: new Map(),
  };
  // Sites in the order of their ids, so shared rows are written in key order (see addSiteRows).
  const siteOrder = [...bySite].sort(([a], [b]) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  for (const [site, indexes] of siteOrder) {
    const fresh: IngestItem[] = [];
    const seen = new Set<string>();
    for (const i of indexes) {
      const item = items[i] as IngestItem;
      if (state.existing.has(`${site.id}|${item.eventId}`) || seen.has(item.eventId)) {
        outcomes[i] = 'duplicate';
        continue;
      }
      seen.add(item.eventId);
      fresh.push(item);
      outcomes[i] = 'recorded';
    }
    if (fresh.length > 0) addSiteRows(rows, site, fresh, state, now);
    if (site.verified_at === null) rows.verifiedSiteIds.push(site.id);
  }
  return rows;
}

function uniqueBy<T>(values: T[], keyOf: (value: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const value of values) byKey.set(keyOf(value), value);
  return [...byKey.values()];
}

/** Adds one site's fresh items to the batch: events, visits built from them, and the rest. */
function addSiteRows(
  rows: BatchRows,
  site: Site,
  items: IngestItem[],
  state: store.BatchState,
  now: Date,
): void {
  const latest = new Map(
    state.latest.filter((v) => v.site_id === site.id).map((visit) => [visit.visitor_id, visit]),
  );
  const isKnown = (visitorId: string) => state.known.has(`${site.id}|${visitorId}`);
  const touched = new Map<string, store.VisitRow>();
  const visitors = new Map<string, store.VisitorRow>();
  const goalNames = new Set<string>();
  const dailyVisits = new Map<string, store.DailyVisitsRow>();

  const bumpVisits = (visit: store.VisitRow, day: string, visits: number, pageviews: number) => {
    const key = `${day}|${visit.source_kind}|${visit.session_ai_source}`;
    const row = dailyVisits.get(key) ?? {
      site_id: site.id,
      day,
      source_kind: visit.source_kind,
      session_ai_source: visit.session_ai_source,
      visits: 0,
      pageviews: 0,
    };
    row.visits += visits;
    row.pageviews += pageviews;
    dailyVisits.set(key, row);
  };

  const openVisit = (item: IngestItem, at: Date): store.VisitRow | undefined => {
    const visit = item.visitorId ? latest.get(item.visitorId) : undefined;
    return visit && at.getTime() - visit.last_activity_at.getTime() <= VISIT_IDLE_MS ? visit : undefined;
  };

  const classify = (item: IngestItem) =>
    classifySource({
      referrer: item.referrer,
      url: item.url,
      siteDomain: site.domain,
      cookieApexDomain: site.cookie_apex_domain,
    });

  const startVisit = (
    item: IngestItem,
    at: Date,
    source = classify(item),
    campaign = campaignOf(item.url),
  ): store.VisitRow => {
    const classification = source ?? { source_kind: 'unknown', session_ai_source: 'direct', source_name: '' };
    const visitorId = item.visitorId as string;
    const visit: store.VisitRow = {
      site_id: site.id,
      id: randomUUID(),
      visitor_id: visitorId,
      started_at: at,
      last_activity_at: at,
      entry_url: item.url,
      source_kind: classification.source_kind,
      session_ai_source: classification.session_ai_source,
      source_name: classification.source_name,
      source_key: sourceKeyOf(classification, campaign),
      campaign: campaign.utm_campaign,
      ref: campaign.ref,
      device_type: item.device.device_type,
      os: item.device.os,
      browser: item.device.browser,
      country_code: item.location.country_code,
      city: item.location.city,
      pageviews: 0,
      engaged_seconds: 0,
      is_new: !isKnown(visitorId) && !latest.has(visitorId),
    };
    latest.set(visitorId, visit);
    bumpVisits(visit, dayOf(at), 1, 0);
    if (visit.source_kind === 'ai') {
      rows.outbox.push({
        site_id: site.id,
        id: randomUUID(),
        type: 'ai_session.classified',
        dedupe_key: visit.id,
        payload: {
          site_id: site.snippet_key,
          visit_id: visit.id,
          ai_source: visit.session_ai_source,
          source_kind: visit.source_kind,
          source_name: visit.source_name,
          entry_url: visit.entry_url,
          campaign: visit.campaign,
          country_code: visit.country_code,
          device_type: visit.device_type,
          is_new_visitor: visit.is_new,
          started_at: at.toISOString(),
        },
        created_at: now,
      });
    }
    return visit;
  };

  for (const item of items) {
    const at = item.occurredAt;
    let visit: store.VisitRow | undefined;
    if (item.type === 'pageview' && item.visitorId) {
      const source = classify(item);
      const campaign = campaignOf(item.url);
      const current = latest.get(item.visitorId);
      visit = startsNewVisit(current, at, sourceKeyOf(source, campaign))
        ? startVisit(item, at, source, campaign)
        : current;
      if (visit) {
        visit.pageviews += 1;
        visit.last_activity_at = at;
        bumpVisits(visit, dayOf(at), 0, 1);
      }
    } else if (item.type === 'event' && item.visitorId) {
      visit = openVisit(item, at) ?? (item.origin === 'browser' ? startVisit(item, at) : undefined);
      if (visit && item.origin === 'browser') visit.last_activity_at = at;
    } else if (item.type === 'engagement') {
      visit = openVisit(item, at);
      if (visit) {
        visit.engaged_seconds += Math.round(item.engagedMs / 1000);
        visit.last_activity_at = at;
      }
    }
    if (visit) touched.set(visit.id, visit);

    if (item.visitorId && item.origin === 'browser') {
      const row = visitors.get(item.visitorId) ?? {
        site_id: site.id,
        visitor_id: item.visitorId,
        first_seen: at,
        last_seen: at,
      };
      row.last_seen = at;
      visitors.set(item.visitorId, row);
    }
    if (item.personKey && item.visitorId) {
      rows.links.push({
        site_id: site.id,
        person_key: item.personKey,
        visitor_id: item.visitorId,
        created_at: at,
      });
      if (item.emailKey) {
        // A millisecond later: a visitor's earliest link names its person, which stays the user id.
        const later = new Date(at.getTime() + 1);
        rows.links.push({
          site_id: site.id,
          person_key: item.emailKey,
          visitor_id: item.visitorId,
          created_at: later,
        });
      }
    }
    if (item.type === 'event' && item.name && goalNameProblem(item.name) === null) {
      goalNames.add(item.name);
    }
    const currency = item.value ? (item.value.currency ?? site.currency) : null;
    rows.events.push({
      site_id: site.id,
      event_id: item.eventId,
      type: item.type,
      name: item.name,
      visitor_id: item.visitorId,
      person_key: item.personKey,
      visit_id: visit?.id ?? null,
      occurred_at: at,
      received_at: item.receivedAt,
      url: item.url || null,
      properties: item.properties,
      value_minor: item.value && currency ? toMinorUnits(item.value.amount, currency) : null,
      currency,
      origin: item.origin,
    });
  }

  rows.visits.push(...touched.values());
  // Shared rows (visitors, rollups) are written in key order, so batches of two processes
  // committing at once take their row locks in the same order and never deadlock. Sites are
  // visited in the order of their ids for the same reason.
  rows.visitors.push(...byKey(visitors));
  rows.dailyVisits.push(...byKey(dailyVisits));
  if (goalNames.size > 0) rows.goalNames.set(site.id, goalNames);
}

function byKey<V>(entries: Map<string, V>): V[] {
  return [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
}
