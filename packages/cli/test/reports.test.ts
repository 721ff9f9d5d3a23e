/**
 * The report commands against a seeded site: each prints what the API answers, as a table by
 * default and unchanged under --json.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, useCliServer } from './harness.js';
import { seedTraffic } from './seed.js';

const server = useCliServer();
beforeAll(() => seedTraffic(server));

/** The line of a table that starts with `first` (after trimming). */
const lineOf = (stdout: string, first: string) =>
  stdout.split('\n').find((line) => line.trim().startsWith(first)) ??
  `(no line starting ${first} in:\n${stdout})`;

describe('stats, sources and pages', () => {
  it('stats --by channel prints the query API’s rows, formatted, and --json prints its answer', async () => {
    const flags = [
      '--range',
      '7d',
      '--by',
      'channel',
      '--metrics',
      'visitors,pageviews,bounce_rate,visit_duration,revenue_net',
    ];
    const [human, json, api] = await Promise.all([
      server.run(['stats', ...flags]),
      server.run(['stats', ...flags, '--json']),
      server.api<{ results: { dimensions: string[]; metrics: number[] }[] }>('POST', '/v1/stats/query', {
        site_id: server.site,
        metrics: ['visitors', 'pageviews', 'bounce_rate', 'visit_duration', 'revenue_net'],
        date_range: '7d',
        dimensions: ['visit:channel'],
      }),
    ]);
    expect(human.code, human.stderr).toBe(0);
    expect(jsonOf(json)).toEqual(api.body);
    const ai = api.body.results.find((row) => row.dimensions[0] === 'ai');
    expect(ai?.metrics[0]).toBe(4);
    expect(human.stdout).toMatch(
      /CHANNEL\s+VISITORS\s+PAGEVIEWS\s+BOUNCE RATE\s+VISIT DURATION\s+REVENUE NET/,
    );
    const [visitors, pageviews, bounce, duration] = ai?.metrics ?? [];
    expect(lineOf(human.stdout, 'ai')).toMatch(
      new RegExp(
        `^ai\\s+${visitors}\\s+${pageviews}\\s+${bounce?.toFixed(1)}%\\s+${duration}s\\s+\\$1,348\\.50$`,
      ),
    );
  });

  it('stats takes filters, order and comparison flags into the query body', async () => {
    const run = await server.run([
      'stats',
      '--by',
      'ai_source',
      '--filter',
      'channel=ai',
      '--order',
      'visitors:desc',
      '--compare',
      'previous_period',
      '--total',
      '--json',
    ]);
    const answer = jsonOf<{
      query: Record<string, unknown>;
      meta: Record<string, unknown>;
      results: { dimensions: string[] }[];
    }>(run);
    expect(answer.query).toMatchObject({
      dimensions: ['visit:ai_source'],
      filters: [['is', 'visit:channel', ['ai']]],
      order_by: [['visitors', 'desc']],
      include: { total_rows: true, comparison: 'previous_period' },
    });
    expect(answer.results.map((row) => row.dimensions[0])).toEqual(['chatgpt', 'perplexity']);
    const human = await server.run([
      'stats',
      '--by',
      'ai_source',
      '--filter',
      'channel=ai',
      '--compare',
      'previous_period',
    ]);
    expect(human.stdout).toMatch(/AI SOURCE\s+VISITORS\s+CHANGE/);
    expect(lineOf(human.stdout, 'chatgpt')).toMatch(/^chatgpt\s+3\s+—/);
  });

  it('sources --ai and pages are shortcuts over the same query', async () => {
    const [sources, pages, pagesJson] = await Promise.all([
      server.run(['sources', '--ai', '--metrics', 'visitors']),
      server.run(['pages', '--range', '7d']),
      server.run(['pages', '--range', '7d', '--json']),
    ]);
    expect(lineOf(sources.stdout, 'chatgpt')).toMatch(/^chatgpt\s+3$/);
    expect(lineOf(sources.stdout, 'perplexity')).toMatch(/^perplexity\s+1$/);
    const answer = jsonOf<{
      query: { dimensions: string[] };
      results: { dimensions: string[]; metrics: number[] }[];
    }>(pagesJson);
    expect(answer.query.dimensions).toEqual(['event:page']);
    expect(answer.results[0]).toEqual({ dimensions: ['/pricing'], metrics: [4, 4] });
    expect(lineOf(pages.stdout, '/pricing')).toMatch(/^\/pricing\s+4\s+4$/);
  });
});

describe('realtime', () => {
  it('prints the visitors now; --json is the API’s answer', async () => {
    const [human, json] = await Promise.all([server.run(['realtime']), server.run(['realtime', '--json'])]);
    expect(human.stdout).toMatch(/^6 visitors on the site/);
    expect(lineOf(human.stdout, '/pricing')).toMatch(/\/pricing\s+4/);
    const answer = jsonOf<{ visitors: number; as_of: string }>(json);
    const api = await server.api<{ visitors: number; pages: unknown }>(
      'GET',
      `/v1/stats/realtime?site_id=${server.site}`,
    );
    expect({ ...answer, as_of: undefined }).toEqual({ ...api.body, as_of: undefined });
  });

  it('--watch redraws until Ctrl-C, then exits 0', async () => {
    let seen = '';
    const run = await server.run(['realtime', '--watch', '--interval', '1'], {
      onStart: (child) =>
        child.stdout?.on('data', (chunk) => {
          seen += chunk;
          // Two redraws seen: stop it as a person would.
          if ((seen.match(/visitors on the site/g)?.length ?? 0) === 2) child.kill('SIGINT');
        }),
    });
    expect(run.code).toBe(0);
    expect(run.stdout.match(/visitors on the site/g)?.length).toBeGreaterThanOrEqual(2);
    expect(run.stdout).toContain('Ctrl-C to stop.');
  });
});

describe('goals, sessions and events', () => {
  it('goals list, timeseries, properties and visitors', async () => {
    const [list, listJson, series, properties, visitors, visitorsJson] = await Promise.all([
      server.run(['goals', 'list']),
      server.run(['goals', 'list', '--json']),
      server.run(['goals', 'timeseries']),
      server.run(['goals', 'properties', 'signup']),
      server.run(['goals', 'visitors', 'signup']),
      server.run(['goals', 'visitors', 'signup', '--json']),
    ]);
    const api = await server.api('GET', `/v1/goals?site_id=${server.site}`);
    expect(jsonOf(listJson)).toEqual(api.body);
    expect(list.stdout).toMatch(/signup/);
    expect(lineOf(series.stdout, 'signup')).toMatch(/^signup\s+3\s+\d{4}-\d{2}-\d{2} \(3\)$/);
    expect(lineOf(properties.stdout, 'plan')).toMatch(/^plan\s+pro\s+3$/);
    const people = jsonOf<{ total_count: number; visitors: { label: { name: string } }[] }>(visitorsJson);
    expect(people.total_count).toBe(3);
    for (const person of people.visitors) expect(visitors.stdout).toContain(person.label.name);
    expect(visitors.stdout).toMatch(/People\s+3 \(page 1\)/);
  });

  it('goals create, update, archive and unarchive', async () => {
    const created = await server.run([
      'goals',
      'create',
      'trial_started',
      '--display-name',
      'Trial',
      '--emoji',
      '🚀',
      '--json',
    ]);
    const goal = jsonOf<{ goal: { id: string; name: string } }>(created).goal;
    expect(goal.name).toBe('trial_started');
    const updated = await server.run(['goals', 'update', goal.id, '--sort-order', '5']);
    expect(lineOf(updated.stdout, goal.id)).toMatch(/trial_started\s+🚀 Trial\s+5/);
    const archived = await server.run(['goals', 'archive', goal.id]);
    expect(archived.stdout).toContain(`Archived goal ${goal.id}`);
    expect((await server.run(['goals', 'list'])).stdout).not.toContain('trial_started');
    expect((await server.run(['goals', 'list', '--include-archived'])).stdout).toContain('trial_started');
    const back = await server.run(['goals', 'unarchive', goal.id, '--json']);
    expect(jsonOf<{ goal: { archived_at: null } }>(back).goal.archived_at).toBeNull();
  });

  it('sessions list and get show what the API answers', async () => {
    const listJson = await server.run(['sessions', 'list', '--json']);
    const api = await server.api<{ sessions: { id: string }[] }>(
      'GET',
      `/v1/sessions?site_id=${server.site}`,
    );
    expect(jsonOf(listJson)).toEqual(api.body);
    const first = api.body.sessions[0]?.id ?? '';
    const [list, one] = await Promise.all([
      server.run(['sessions', 'list', '--filter', 'channel=ai']),
      server.run(['sessions', 'get', first]),
    ]);
    expect(list.stdout.split('\n').filter((line) => /^[0-9a-f]{8}-/.test(line))).toHaveLength(4);
    expect(one.stdout).toMatch(new RegExp(`Session\\s+${first}`));
    expect(one.stdout).toMatch(/TIME\s+TYPE\s+NAME\s+PAGE/);
  });

  it('events send records a server event that events list and names then show', async () => {
    const sent = await server.run([
      'events',
      'send',
      'demo_booked',
      '--user-id',
      'u_42',
      '--prop',
      'seats=3',
      '--value',
      '120',
      '--currency',
      'USD',
      '--event-id',
      'evt_cli_test_1',
    ]);
    expect(sent.stdout).toBe('Recorded: demo_booked (event evt_cli_test_1)\n');
    const again = await server.run([
      'events',
      'send',
      'demo_booked',
      '--event-id',
      'evt_cli_test_1',
      '--json',
    ]);
    expect(jsonOf(again)).toEqual({ status: 'duplicate', event_id: 'evt_cli_test_1' });
    const [list, names, namesJson] = await Promise.all([
      server.run(['events', 'list', '--type', 'server']),
      server.run(['events', 'names']),
      server.run(['events', 'names', '--json']),
    ]);
    expect(lineOf(list.stdout.split('\n').slice(1).join('\n'), '20')).toMatch(
      /server\s+demo_booked\s+—\s+—\s+\$120\.00$/,
    );
    expect(jsonOf(namesJson)).toEqual(
      (await server.api('GET', `/v1/events/names?site_id=${server.site}`)).body,
    );
    expect(lineOf(names.stdout, 'signup')).toMatch(/^signup\s+custom\s+3\s+3$/);
  });
});

describe('visitors and AI visibility', () => {
  it('visitors list and get show the people the API answers', async () => {
    const listJson = await server.run(['visitors', 'list', '--sort', 'revenue', '--json']);
    const api = await server.api<{ visitors: { handle: string; label: { name: string } }[] }>(
      'GET',
      `/v1/visitors?site_id=${server.site}&sort=revenue`,
    );
    expect(jsonOf(listJson)).toEqual(api.body);
    const top = api.body.visitors[0];
    const [list, one] = await Promise.all([
      server.run(['visitors', 'list', '--sort', 'revenue']),
      server.run(['visitors', 'get', top?.handle ?? '']),
    ]);
    expect(lineOf(list.stdout, top?.label.name ?? '')).toMatch(/chatgpt\s+1\s+45s\s+\$1,299\.50/);
    expect(one.stdout).toMatch(/Revenue\s+\$1,299\.50/);
    expect(lineOf(one.stdout, 'payment')).toMatch(/\$1,299\.50$/);
  });

  it('visibility lists pages with assistant visits', async () => {
    const [human, json] = await Promise.all([
      server.run(['visibility']),
      server.run(['visibility', '--json']),
    ]);
    const api = await server.api<{
      pages: { page: string; ai_visits: { total: number }; conversions: number }[];
    }>('GET', `/v1/ai-visibility?site_id=${server.site}`);
    expect(jsonOf(json)).toEqual(api.body);
    const pricing = api.body.pages.find((page) => page.page === '/pricing');
    expect(pricing?.ai_visits.total).toBeGreaterThan(0);
    expect(lineOf(human.stdout, '/pricing')).toMatch(
      new RegExp(`^/pricing\\s+0\\s+${pricing?.ai_visits.total}\\s+${pricing?.conversions}\\s+\\$`),
    );
  });
});

describe('revenue, crawlers and funnels', () => {
  it('revenue prints money in the site currency per source, with --model', async () => {
    const [human, json] = await Promise.all([
      server.run(['revenue', '--model', 'first_touch']),
      server.run(['revenue', '--model', 'first_touch', '--json']),
    ]);
    const api = await server.api('GET', `/v1/revenue?site_id=${server.site}&attribution_model=first_touch`);
    expect(jsonOf(json)).toEqual(api.body);
    expect(lineOf(human.stdout, 'chatgpt')).toMatch(
      /^chatgpt\s+\$1,348\.50\s+\$0\.00\s+\$1,348\.50\s+2\s+0$/,
    );
    expect(lineOf(human.stdout, 'Total')).toMatch(/\$1,348\.50/);
    expect(human.stdout).toContain('first_touch · USD');
  });

  it('crawlers prints the crawler report', async () => {
    const [human, json] = await Promise.all([server.run(['crawlers']), server.run(['crawlers', '--json'])]);
    // The command's default range, the last 30 days (the endpoint's own default is 7).
    const day = (ago: number) => new Date(Date.now() - ago * 86_400_000).toISOString().slice(0, 10);
    const api = await server.api('GET', `/v1/crawlers?site_id=${server.site}&from=${day(29)}&to=${day(0)}`);
    expect(jsonOf(json)).toEqual(api.body);
    expect(human.stdout).toMatch(/No AI crawler hits/);
    expect(lineOf(human.stdout, 'OpenAI')).toMatch(/^OpenAI\s+0\s+0\s+3/);
  });

  it('funnels create, list, report, query and delete', async () => {
    const created = await server.run([
      'funnels',
      'create',
      '--name',
      'Signup',
      '--step',
      'page:/pricing',
      '--step',
      'event:signup',
      '--json',
    ]);
    const funnel = jsonOf<{ funnel: { id: string } }>(created).funnel;
    const [list, report, reportJson, query] = await Promise.all([
      server.run(['funnels', 'list']),
      server.run(['funnels', 'report', funnel.id, '--breakdown', 'channel']),
      server.run(['funnels', 'report', funnel.id, '--json']),
      server.run(['funnels', 'query', '--step', 'page:/pricing', '--step', 'event:signup', '--range', '7d']),
    ]);
    expect(lineOf(list.stdout, funnel.id)).toMatch(/Signup\s+page \/pricing → event signup\s+168 h/);
    expect(jsonOf(reportJson)).toEqual(
      (await server.api('GET', `/v1/funnels/${funnel.id}/report?site_id=${server.site}`)).body,
    );
    expect(lineOf(report.stdout, '1')).toMatch(/^1\s+\/pricing\s+4\s+100\.0%\s+100\.0%\s+0\s+\S+$/);
    expect(report.stdout).toMatch(/\nai\n/);
    const asked = await server.api<{ steps: { index: number; label: string; visitors: number }[] }>(
      'POST',
      '/v1/funnels/query',
      {
        site_id: server.site,
        steps: [
          { type: 'page', match: 'is', value: '/pricing' },
          { type: 'event', name: 'signup' },
        ],
        date_range: '7d',
      },
    );
    for (const step of asked.body.steps)
      expect(query.stdout).toMatch(new RegExp(`^${step.index}\\s+${step.label}\\s+${step.visitors}\\s`, 'm'));
    const deleted = await server.run(['funnels', 'delete', funnel.id]);
    expect(deleted.stdout).toBe(`Deleted funnel ${funnel.id}.\n`);
  });
});
