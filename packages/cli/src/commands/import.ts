/**
 * `touchtrail import <source> <file>`: uploads another tool's export file to the site's imports,
 * streamed from disk, then follows the import until it ends, with a progress bar on stderr
 * (upload, then the server reading the file) and one summary line. A failed import exits 2 with
 * the line and reason the server gave.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { type operations, TouchtrailApiError, TouchtrailNetworkError, unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action, type Context } from '../context.js';
import { EXIT_API, ReportedFailure, UsageError } from '../errors.js';
import { example, oneOf } from '../options.js';
import { formatNumber } from '../output/format.js';
import { CLI_VERSION } from '../version.js';

type Import = operations['getImport']['responses'][200]['content']['application/json']['import'];

const SOURCES = ['plausible', 'umami', 'ga4', 'matomo'] as const;
const POLL_MS = 1_000;
const BAR_WIDTH = 24;

/** A bar redrawn in place on stderr; silent when stderr is not a terminal. */
function bar(label: string) {
  const isOn = Boolean(process.stderr.isTTY);
  let drawnAt = 0;
  return {
    draw(done: number, total: number, force = false) {
      if (!isOn || (!force && Date.now() - drawnAt < 100)) return;
      drawnAt = Date.now();
      const filled = total === 0 ? BAR_WIDTH : Math.min(BAR_WIDTH, Math.round((done / total) * BAR_WIDTH));
      const percent = total === 0 ? 100 : Math.floor((100 * done) / total);
      process.stderr.write(`\r${label} ${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)} ${percent}%`);
    },
    end() {
      if (isOn) process.stderr.write('\n');
    },
  };
}

const CONTENT_TYPES: Record<(typeof SOURCES)[number], string> = {
  plausible: 'application/zip',
  umami: 'text/csv',
  ga4: 'application/x-ndjson',
  matomo: 'text/csv',
};

async function uploadFile(ctx: Context, source: (typeof SOURCES)[number], file: string): Promise<Import> {
  const size = await stat(file).then(
    (found) => found.size,
    (error: Error) => {
      throw new UsageError(`cannot read ${file}: ${error.message}`);
    },
  );
  if (!ctx.settings.apiKey)
    throw new UsageError('no API key', 'Run touchtrail login or set TOUCHTRAIL_API_KEY.');
  const url = `${ctx.settings.url}/v1/sites/${encodeURIComponent(ctx.site())}/imports?source=${source}`;
  const progress = bar('Uploading');
  let sent = 0;
  const body = createReadStream(file).on('data', (piece) => {
    sent += piece.length;
    progress.draw(sent, size);
  });
  let response: Response;
  try {
    // No timeout and no retry: a large file takes as long as it takes, and a stream is sent once.
    response = await fetch(url, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ctx.settings.apiKey}`,
        'content-type': CONTENT_TYPES[source],
        'content-length': String(size),
        'user-agent': `touchtrail-cli/${CLI_VERSION}`,
      },
      body: Readable.toWeb(body) as ReadableStream<Uint8Array>,
      duplex: 'half',
    } as RequestInit);
  } catch (error) {
    progress.end();
    throw new TouchtrailNetworkError(ctx.settings.url, (error as Error).message, error);
  }
  progress.draw(size, size, true);
  progress.end();
  const answer = await response.json().catch(() => undefined);
  if (!response.ok) throw new TouchtrailApiError(response.status, answer, response.statusText);
  return (answer as { import: Import }).import;
}

async function follow(ctx: Context, site: string, started: Import): Promise<Import> {
  const progress = bar('Reading  ');
  let current = started;
  while (current.status === 'pending' || current.status === 'running') {
    progress.draw(current.progress.bytes_read, current.progress.bytes_total);
    await sleep(POLL_MS);
    const answer = await unwrap(
      ctx.client.GET('/v1/sites/{siteId}/imports/{importId}', {
        params: { path: { siteId: site, importId: current.id } },
      }),
    );
    current = answer.import as Import;
  }
  progress.draw(current.progress.bytes_total, current.progress.bytes_total, true);
  progress.end();
  return current;
}

function summary(done: Import): string {
  const rows = `${formatNumber(done.progress.rows_read)} rows read, ${formatNumber(done.progress.rows_refused)} left out`;
  if (done.status === 'completed') {
    const days = done.date_range ? `${done.date_range[0]} to ${done.date_range[1]}` : 'no days';
    const kept = done.kept_before
      ? ` (days from ${done.kept_before} on left out: the site has its own traffic)`
      : '';
    return `Imported ${days} from ${done.source}: ${rows}${kept}. Import ${done.id}\n`;
  }
  if (done.status === 'failed') {
    const where = done.error?.line ? ` at line ${done.error.line}` : '';
    return `The import failed${where}: ${done.error?.message ?? 'no reason given'}. Nothing was kept. Import ${done.id}\n`;
  }
  return `The import was ${done.status}. Import ${done.id}\n`;
}

export function registerImport(program: Command) {
  program
    .command('import')
    .description('Import a site’s history from another tool’s export file')
    .argument('<source>', `the tool: ${SOURCES.join(', ')}`, oneOf(SOURCES))
    .argument(
      '<file>',
      'the export file (Plausible: the ZIP; Umami: the CSV of website_event rows; GA4: BigQuery NDJSON; Matomo: Live.getLastVisitsDetails CSV)',
    )
    .option('--no-wait', 'return once the file is uploaded, without following the import')
    .addHelpText(
      'after',
      example(
        'touchtrail import plausible plausible_export.zip --site ttid_…',
        'touchtrail import umami events.csv',
      ),
    )
    .action(
      action<{ wait: boolean }>(async (ctx, options, args) => {
        const [source, file] = args as [(typeof SOURCES)[number], string];
        const site = ctx.site();
        const started = await uploadFile(ctx, source, file);
        const done = options.wait ? await follow(ctx, site, started) : started;
        ctx.print({ import: done }, () =>
          options.wait ? summary(done) : `Uploaded; the import is ${done.status}. Import ${done.id}\n`,
        );
        if (done.status === 'failed') throw new ReportedFailure(EXIT_API);
      }),
    );
}
