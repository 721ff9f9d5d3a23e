/**
 * The refreshes of data the server downloads: exchange rates from RATES_URL (at start and every
 * RATES_REFRESH_HOURS; off when RATES_URL is empty or `off`) and the crawler operators' address
 * ranges (at start and daily; off with CRAWLER_RANGES=off). A failure keeps the stored data in
 * use and never stops the server.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import { type CrawlerRanges, RANGES_MAX_AGE_MS } from '../crawlers/crawler-ranges.js';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { FetchFileError, shownUrl } from '../lib/fetch-file.js';
import { RatesFileError } from '../rates/ecb-xml.js';
import type { RatesService } from '../rates/rates.service.js';
import { startRefreshJob } from './refresh-job.js';

/*
 * Failures are logged as their message alone: a stack says nothing to an operator whose server
 * cannot reach the internet, and these run at every start. The messages quote URLs with their
 * origin and path only (lib/fetch-file.ts).
 */
const RANGES_ADVICE =
  'Check that this server can reach the URLs in crawler-ranges.data.ts, or set CRAWLER_RANGES=off ' +
  'on a server without outbound access (crawler hits then stay unchecked)';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

function ratesAdvice(error: unknown): string {
  const kept = 'exchange rates not refreshed; the stored rates stay in use.';
  if (error instanceof FetchFileError)
    return (
      `${kept} Check that this server can reach RATES_URL, or set RATES_URL=off on a server without ` +
      'outbound access and load rates with `npm run rates:import -- FILE`'
    );
  if (error instanceof RatesFileError)
    return `${kept} RATES_URL did not serve an ECB euro reference-rate XML file: check the URL`;
  return kept;
}

export function startDownloadRefreshes(deps: {
  log: FastifyBaseLogger;
  rates: Pick<RatesService, 'refresh'>;
  crawlerRanges: Pick<CrawlerRanges, 'refresh'>;
  config: Pick<Config, 'ratesUrl' | 'ratesRefreshHours' | 'crawlerRanges'>;
}): () => Promise<void> {
  const { log, rates, crawlerRanges, config } = deps;
  const ratesUrl = config.ratesUrl;
  const ratesRefresh = ratesUrl
    ? startRefreshJob({
        name: 'rates-refresh',
        refresh: (signal) => rates.refresh(ratesUrl, { signal }),
        intervalMs: config.ratesRefreshHours * HOUR_MS,
        onRefreshed: (result) => log.info({ job: 'rates-refresh', ...result }, 'exchange rates refreshed'),
        onError: (error) =>
          log.warn(
            { job: 'rates-refresh', url: shownUrl(ratesUrl), error: messageOf(error) },
            ratesAdvice(error),
          ),
      })
    : undefined;

  const rangesRefresh = config.crawlerRanges
    ? startRefreshJob({
        name: 'crawler-ranges',
        refresh: (signal) => crawlerRanges.refresh(signal),
        intervalMs: DAY_MS,
        onRefreshed: (report) => {
          const total = report.failed.length + report.refreshed.length;
          if (report.failed.length === 0)
            log.info({ job: 'crawler-ranges', ...report }, 'crawler address lists refreshed');
          else
            log.warn(
              { job: 'crawler-ranges', ...report },
              `${report.failed.length} of ${total} crawler address lists could not be downloaded; ` +
                `a stored copy stays in use up to ${RANGES_MAX_AGE_MS / DAY_MS} days. ${RANGES_ADVICE}`,
            );
        },
        onError: (error) =>
          log.warn(
            { job: 'crawler-ranges', error: messageOf(error) },
            `crawler address lists not refreshed; the stored copies stay in use. ${RANGES_ADVICE}`,
          ),
      })
    : undefined;

  return async () => {
    await ratesRefresh?.stop();
    await rangesRefresh?.stop();
  };
}
