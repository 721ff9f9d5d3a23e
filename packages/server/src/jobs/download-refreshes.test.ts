/**
 * A server without outbound access fails both downloads at every start. Each failed refresh is
 * one warning line that says what stays in use and what to do, never a stack trace: the
 * refreshes run here against a port nothing listens on, as real downloads with the real log.
 */
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createCrawlerRanges } from '../crawlers/crawler-ranges.js';
import { createRatesService } from '../rates/rates.service.js';
import { useTestApp } from '../test/app.js';
import { startDownloadRefreshes } from './download-refreshes.js';

const LOG_DEADLINE_MS = 15_000;

/** An address on this machine that refuses connections: a port that was free a moment ago. */
function closedPortUrl(): Promise<string> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(`http://127.0.0.1:${port}`));
    });
  });
}

interface LogLine {
  level: number;
  job?: string;
  msg: string;
}

// Found before the app is built: its config names the unreachable address.
const unreachable = await closedPortUrl();

describe('download refreshes without outbound access', () => {
  const test = useTestApp(
    { RATES_URL: `${unreachable}/eurofxref-daily.xml?key=secret`, CRAWLER_RANGES: 'on' },
    { owner: false },
  );

  it('logs one warning line per failed refresh, with what to do and no stack trace', async () => {
    const { db } = test.database;
    const stop = startDownloadRefreshes({
      log: test.app.log,
      rates: createRatesService({ db, clock: test.clock }),
      crawlerRanges: createCrawlerRanges({
        db,
        clock: test.clock,
        sources: {
          GPTBot: `${unreachable}/gptbot.json`,
          PerplexityBot: `${unreachable}/perplexitybot.json`,
          DuckAssistBot: `${unreachable}/duckassistbot.json`,
        },
      }),
      config: test.config,
    });
    const refreshLines = () =>
      test
        .logs()
        .split('\n')
        .filter(Boolean)
        .map((line) => ({ text: line, parsed: JSON.parse(line) as LogLine }))
        .filter(({ parsed }) => parsed.job === 'rates-refresh' || parsed.job === 'crawler-ranges');
    const deadline = Date.now() + LOG_DEADLINE_MS;
    while (new Set(refreshLines().map(({ parsed }) => parsed.job)).size < 2 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await stop();

    const lines = refreshLines();
    const rates = lines.filter(({ parsed }) => parsed.job === 'rates-refresh');
    const ranges = lines.filter(({ parsed }) => parsed.job === 'crawler-ranges');
    expect(rates, 'rates refresh log lines').toHaveLength(1);
    expect(ranges, 'crawler ranges log lines (one for all the lists)').toHaveLength(1);
    for (const { text, parsed } of lines) {
      expect(parsed.level, `level of ${text}`).toBe(40);
      expect(text, 'a stack trace').not.toMatch(/"stack"|\\n\s+at /);
      expect(text, 'the rates URL’s query string').not.toContain('secret');
    }
    expect(rates[0]?.parsed.msg).toContain('stored rates stay in use');
    expect(rates[0]?.parsed.msg).toContain('RATES_URL=off');
    expect(rates[0]?.parsed.msg).toContain('npm run rates:import');
    expect(rates[0]?.text).toContain(`GET ${unreachable}/eurofxref-daily.xml failed`);
    expect(ranges[0]?.parsed.msg).toContain('3 of 3 crawler address lists');
    expect(ranges[0]?.parsed.msg).toContain('CRAWLER_RANGES=off');
  });
});
