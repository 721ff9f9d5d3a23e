/**
 * Writes one batch of ingest items in one transaction: resolves their sites, drops duplicates
 * (same event id), builds visits, links identities, registers goals, bumps the daily rollups,
 * queues outbox facts and marks sites verified. Writers are serialised per visitor with
 * advisory locks, so two processes never build two visits for one arrival.
 */
import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/types.js';
import { GOALS_PER_SITE, goalNameProblem } from '../goals/goal-names.js';
import type { Clock } from '../lib/clock.js';
import { toMinorUnits } from '../lib/money.js';
import { classifySource } from '../sources/classify-source.js';
import * as store from './ingest.store.js';
import type { IngestItem, IngestOutcome } from './ingest-item.js';
import { campaignOf, sourceKeyOf, startsNewVisit, VISIT_IDLE_MS } from './sessionize.js';

type Site = Awaited<ReturnType<typeof store.loadSites>>[number];

const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** A server event's key must reach the site; a site outside it is answered like an unknown one. */
function isCovered(site: Site, item: IngestItem): boolean {
  if (!item.access) return true;
  return (
    site.account_id === item.access.accountId &&
    (item.access.siteId === null || item.access.siteId === site.id)
  );
}

export function createBatchWriter({ db, clock }: { db: Kysely<DB>; clock: Clock }) {
  return async function writeBatch(items: IngestItem[]): Promise<IngestOutcome[]> {
    const outcomes: IngestOutcome[] = items.map(() => 'unknown_site');
    await db.transaction().execute(async (trx) => {
      const sites = await store.loadSites(trx, [...new Set(items.map((item) => item.snippetKey))]);
      const bySite = new Map<Site, number[]>();
      items.forEach((item, index) => {
        const site = sites.find((candidate) => candidate.snippet_key === item.snippetKey);
        if (!site || !isCovered(site, item)) return;
        if (site.deleted_at) {
          outcomes[index] = 'site_deleted';
          return;
        }
        bySite.set(site, [...(bySite.get(site) ?? []), index]);
      });
      const lockKeys = [...bySite].flatMap(([site, indexes]) =>
        indexes.map((i) => `${site.id}|${items[i]?.visitorId ?? `event:${items[i]?.eventId}`}`),
      );
      await store.lockKeys(trx, lockKeys);
      for (const [site, indexes] of bySite) {
        const existing = await store.findExistingEventIds(
          trx,
          site.id,
          indexes.map((i) => (items[i] as IngestItem).eventId),
        );
        const fresh: IngestItem[] = [];
        const seen = new Set<string>();
        for (const i of indexes) {
          const item = items[i] as IngestItem;
          if (existing.has(item.eventId) || seen.has(item.eventId)) {
            outcomes[i] = 'duplicate';
            continue;
          }
          seen.add(item.eventId);
          fresh.push(item);
          outcomes[i] = 'recorded';
        }
        if (fresh.length > 0) await writeSiteItems(trx, site, fresh, clock.now());
      }
      await store.markVerified(
        trx,
        [...bySite.keys()].map((site) => site.id),
        clock.now(),
      );
    });
    return outcomes;
  };
}

async function writeSiteItems(
  trxn: Transaction<DB>,
  site: Site,
  items: IngestItem[],
  now: Date,
): Promise<void> {
  const visitorIds = [...new Set(items.flatMap((item) => (item.visitorId ? [item.visitorId] : [])))];
  const latest = new Map(
    (await store.loadLatestVisits(trxn, site.id, visitorIds)).map((v) => [v.visitor_id, v]),
  );
  const known = await store.loadKnownVisitors(trxn, site.id, visitorIds);
  const touched = new Map<string, store.VisitRow>();
  const events: Parameters<typeof store.insertEvents>[1] = [];
  const visitors = new Map<
    string,
    { site_id: string; visitor_id: string; first_seen: Date; last_seen: Date }
  >();
  const links: Parameters<typeof store.insertIdentityLinks>[1] = [];
  const goalNames = new Set<string>();
  const completions = new Map<string, number>();
  const dailyVisits = new Map<
    string,
    { visits: number; pageviews: number; kind: string; label: string; day: string }
  >();
  const outbox: Parameters<typeof store.insertOutboxEvents>[1] = [];

  const bumpVisits = (visit: store.VisitRow, day: string, visits: number, pageviews: number) => {
    const key = `${day}|${visit.source_kind}|${visit.session_ai_source}`;
    const row = dailyVisits.get(key) ?? {
      visits: 0,
      pageviews: 0,
      kind: visit.source_kind,
      label: visit.session_ai_source,
      day,
    };
    row.visits += visits;
    row.pageviews += pageviews;
    dailyVisits.set(key, row);
  };

  const openVisit = (item: IngestItem, at: Date): store.VisitRow | undefined => {
    const visit = item.visitorId ? latest.get(item.visitorId) : undefined;
    return visit && at.getTime() - visit.last_activity_at.getTime() <= VISIT_IDLE_MS ? visit : undefined;
  };

  const startVisit = (item: IngestItem, at: Date): store.VisitRow => {
    const classification = classifySource({
      referrer: item.referrer,
      url: item.url,
      siteDomain: site.domain,
      cookieApexDomain: site.cookie_apex_domain,
    }) ?? { source_kind: 'unknown', session_ai_source: 'direct', source_name: '' };
    const campaign = campaignOf(item.url);
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
      is_new: !known.has(visitorId) && !latest.has(visitorId),
    };
    latest.set(visitorId, visit);
    bumpVisits(visit, dayOf(at), 1, 0);
    if (visit.source_kind === 'ai') {
      outbox.push({
        site_id: site.id,
        id: randomUUID(),
        type: 'ai_session.classified',
        dedupe_key: visit.id,
        payload: JSON.stringify({
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
        }),
        created_at: now,
      });
    }
    return visit;
  };

  for (const item of items) {
    const at = item.occurredAt;
    let visit: store.VisitRow | undefined;
    if (item.type === 'pageview' && item.visitorId) {
      const classification = classifySource({
        referrer: item.referrer,
        url: item.url,
        siteDomain: site.domain,
        cookieApexDomain: site.cookie_apex_domain,
      });
      const current = latest.get(item.visitorId);
      visit = startsNewVisit(current, at, sourceKeyOf(classification, campaignOf(item.url)))
        ? startVisit(item, at)
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
      links.push({
        site_id: site.id,
        person_key: item.personKey,
        visitor_id: item.visitorId,
        created_at: at,
      });
    }
    if (item.type === 'event' && item.name) {
      if (goalNameProblem(item.name) === null) goalNames.add(item.name);
      const key = `${dayOf(at)}|${item.name}`;
      completions.set(key, (completions.get(key) ?? 0) + 1);
    }
    const currency = item.value ? (item.value.currency ?? site.currency) : null;
    events.push({
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
      properties: item.properties === null ? null : JSON.stringify(item.properties),
      value_minor: item.value && currency ? toMinorUnits(item.value.amount, currency) : null,
      currency,
      origin: item.origin,
    });
  }

  // Shared rows (rollups, visitors) are written in key order, so batches of two processes
  // committing at once take their row locks in the same order and never deadlock.
  const byKey = <V>(entries: Iterable<[string, V]>) =>
    [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  await store.upsertVisits(trxn, [...touched.values()]);
  await store.insertEvents(trxn, events);
  await store.upsertVisitors(
    trxn,
    byKey(visitors).map(([, row]) => row),
  );
  await store.insertIdentityLinks(trxn, links);
  await store.registerGoals(trxn, site.id, [...goalNames], now, GOALS_PER_SITE);
  await store.bumpGoalCompletions(
    trxn,
    byKey(completions).map(([key, count]) => {
      const [day = '', name = ''] = key.split('|');
      return { site_id: site.id, day, name, completions: count };
    }),
  );
  await store.bumpDailyVisits(
    trxn,
    byKey(dailyVisits).map(([, row]) => ({
      site_id: site.id,
      day: row.day,
      source_kind: row.kind,
      session_ai_source: row.label,
      visits: row.visits,
      pageviews: row.pageviews,
    })),
  );
  await store.insertOutboxEvents(trxn, outbox);
  const conversions = events
    .filter((event) => event.type === 'event')
    .map((event) => event.event_id as string);
  await store.insertAttributionJobs(trxn, site.id, conversions, now);
}
