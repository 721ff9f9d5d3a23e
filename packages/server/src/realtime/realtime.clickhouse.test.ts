/**
 * The realtime reads from ClickHouse equal PostgreSQL's, over seeded traffic of the last 40
 * minutes (pageviews from ChatGPT, Perplexity, Google or nowhere, custom events, server events
 * that never make a visitor current, an edge at exactly 5:00): first with two thirds of the
 * visitors sent and copied, then with the last third sent after copying, so PostgreSQL's
 * uncopied rows join ClickHouse's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { serverEvent } from '../attribution/attribution.fixtures.js';
import type { ClickHouse } from '../clickhouse/connection.js';
import { collect, newVisitorId, pageview } from '../ingest/ingest.fixtures.js';
import { MINUTE_MS, SECOND_MS } from '../lib/clock.js';
import { readClickHouse } from '../reporting/clickhouse/ch-read.js';
import { useTestApp } from '../test/app.js';
import { chdbInstalled, copyEverything } from '../test/clickhouse.js';
import { rowsNotCopied } from '../test/clickhouse-lag.query.js';
import { insertSite } from '../test/factories.js';
import { seeded } from '../test/seeded.js';
import { chActiveVisitors, chActivityByMinute, chTopPages, chTopSources } from './realtime.ch.query.js';
import {
  type ActivityWindow,
  activeVisitors,
  activityByMinute,
  topPages,
  topSources,
} from './realtime.query.js';

const REFERRERS = ['https://chatgpt.com/', 'https://www.perplexity.ai/', 'https://www.google.com/', ''];
const PAGES = ['/', '/pricing', '/docs/a', '/docs/b', '/Blog_100%', '/ü'];
const NOW = new Date('2026-06-10T12:00:30.500Z');

interface Sent {
  at: Date;
  visitor: string;
  referrer: string;
  kind: 'pageview' | 'event' | 'server';
  page: string;
}

function generate(): Sent[] {
  const random = seeded(11);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const sent: Sent[] = [];
  for (let v = 0; v < 30; v++) {
    const visitor = newVisitorId();
    const referrer = pick(REFERRERS);
    let at = NOW.getTime() - Math.floor(random() * 40 * MINUTE_MS);
    for (let p = 1 + Math.floor(random() * 3); p > 0 && at <= NOW.getTime(); p--) {
      sent.push({ at: new Date(at), visitor, referrer, kind: 'pageview', page: pick(PAGES) });
      const extra = random();
      if (extra < 0.25)
        sent.push({ at: new Date(at + 20 * SECOND_MS), visitor, referrer, kind: 'event', page: '' });
      else if (extra < 0.4)
        sent.push({ at: new Date(at + 30 * SECOND_MS), visitor, referrer, kind: 'server', page: '' });
      at += (30 + Math.floor(random() * 90)) * SECOND_MS;
    }
  }
  sent.push({
    at: new Date(NOW.getTime() - 5 * MINUTE_MS),
    visitor: newVisitorId(),
    referrer: '',
    kind: 'pageview',
    page: '/edge',
  });
  return sent.filter((s) => s.at <= NOW).sort((a, b) => a.at.getTime() - b.at.getTime());
}

describe.runIf(chdbInstalled)('realtime from ClickHouse and from PostgreSQL', () => {
  const t = useTestApp({}, { clickhouse: true });
  const sent = generate();
  const visitors = [...new Set(sent.map((s) => s.visitor))];
  const isLate = (s: Sent) => visitors.indexOf(s.visitor) % 3 === 2;
  let site: Awaited<ReturnType<typeof insertSite>>;
  const failures: unknown[] = [];

  const send = async (part: Sent[]) => {
    const previous = new Map<string, string>();
    for (const s of part) {
      t.clock.set(s.at);
      if (s.kind === 'server') {
        await serverEvent(t, t.owner.apiKey, {
          site_id: site.snippet_key,
          name: 'renewal',
          visitor_id: s.visitor,
        });
        continue;
      }
      const url = `https://${site.domain}${s.kind === 'event' ? '/thanks' : s.page}`;
      const payload =
        s.kind === 'pageview'
          ? pageview(site.snippet_key, s.visitor, url, previous.get(s.visitor) ?? s.referrer)
          : { type: 'event', site: site.snippet_key, vid: s.visitor, url, name: 'signup' };
      if (s.kind === 'pageview') previous.set(s.visitor, url);
      const response = await collect(t, payload);
      expect(response.statusCode, response.body).toBe(202);
    }
  };

  const shipper = () => {
    const engine = t.app.services.clickhouseEngine;
    if (!engine) throw new Error('the test app runs without ClickHouse');
    return engine.shipper;
  };

  async function everyReadAgrees() {
    const db = t.database.db;
    const current: ActivityWindow = {
      siteId: site.id,
      since: new Date(NOW.getTime() - 5 * MINUTE_MS),
      until: NOW,
    };
    const series: ActivityWindow = { ...current, since: new Date(NOW.getTime() - 30 * MINUTE_MS) };
    const readers = {
      db,
      clickhouse: { ch: t.clickhouse as ClickHouse, onFailure: (e: unknown) => failures.push(e) },
    };
    const byClickHouse = await readClickHouse(readers, site.id, (ch, scope) =>
      Promise.all([
        chActiveVisitors(ch, scope, current),
        chTopPages(ch, scope, current, 3),
        chTopSources(ch, scope, current, 10),
        chActivityByMinute(ch, scope, series),
      ]),
    );
    expect(failures).toEqual([]);
    expect(byClickHouse).not.toBeNull();
    const [visitors, pages, sources, minutes] = byClickHouse ?? [];
    expect(visitors).toBeGreaterThan(0);
    expect(visitors).toBe(await activeVisitors(db, current));
    expect(pages).toEqual(await topPages(db, current, 3));
    expect(sources).toEqual(await topSources(db, current, 10));
    const byMinute = (rows: { minute: number }[]) => [...rows].sort((a, b) => a.minute - b.minute);
    expect(byMinute(minutes ?? [])).toEqual(byMinute(await activityByMinute(db, series)));
  }

  beforeAll(async () => {
    site = await insertSite(t, t.owner.accountId, { domain: 'live.example.com' });
  });

  it('alike with everything copied', async () => {
    await send(sent.filter((s) => !isLate(s)));
    await copyEverything(t.database.db, shipper());
    t.clock.set(NOW);
    await everyReadAgrees();
  }, 60_000);

  it('alike with the latest rows not yet copied', async () => {
    await send(sent.filter(isLate));
    t.clock.set(NOW);
    expect(await rowsNotCopied(t.database.db)).toBeGreaterThan(0);
    await everyReadAgrees();
  }, 60_000);
});
