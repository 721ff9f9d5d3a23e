/**
 * `touchtrail import` against the real server: a Plausible export and an Umami CSV uploaded
 * from disk, followed to the end with the import job run while the command polls, the summary
 * line checked against the file, a broken file reported with its line and exit 2, and the
 * figures read back from the stats query.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { plausibleFiles, umamiCsv, umamiRows, zipOf } from '../../server/src/imports/imports.fixtures.js';
import { freshConfigFolder, jsonOf, type Run, useCliServer } from './harness.js';

const server = useCliServer();
const folder = freshConfigFolder();

/** Runs the command while the import job works whatever is queued, until the command ends. */
async function importing(args: string[]): Promise<Run> {
  let running = true;
  const jobs = (async () => {
    while (running) {
      await server.t.app.services.importJobs.runImportsOnce();
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  try {
    return await server.run(args);
  } finally {
    running = false;
    await jobs;
  }
}

describe('touchtrail import', () => {
  it('imports a Plausible export and says what it kept', async () => {
    const file = path.join(folder, 'plausible_export.zip');
    writeFileSync(file, await zipOf(plausibleFiles()));
    const run = await importing(['import', 'plausible', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^Imported 2025-01-01 to 2025-01-02 from plausible: 26 rows read, 0 left out\. Import [0-9a-f-]{36}\n$/,
    );
    const stats = await server.api<{ results: { metrics: number[] }[] }>('POST', '/v1/stats/query', {
      site_id: server.site,
      date_range: ['2025-01-01', '2025-01-02'],
      metrics: ['visits', 'pageviews'],
      include: { imports: true },
    });
    expect(stats.body.results).toEqual([{ dimensions: [], metrics: [18, 39] }]);
  });

  it('prints the import as JSON for scripts', async () => {
    const file = path.join(folder, 'umami.csv');
    writeFileSync(file, umamiCsv(umamiRows(server.siteDomain)));
    const run = await importing(['--json', 'import', 'umami', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(jsonOf(run)).toMatchObject({
      import: { source: 'umami', status: 'completed', date_range: ['2025-03-01', '2025-03-02'] },
    });
  });

  it('reports a broken file with its line, and exits 2', async () => {
    const file = path.join(folder, 'broken.csv');
    writeFileSync(file, umamiCsv(umamiRows(server.siteDomain)).replace('2025-03-01 10:00:00', 'soon'));
    const run = await importing(['import', 'umami', file]);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(
      /^The import failed at line 5: created_at "soon" is not a date and time\. Nothing was kept\. Import /,
    );
  });

  it('refuses a missing file and an unknown tool before sending anything', async () => {
    const missing = await server.run(['import', 'umami', path.join(folder, 'nope.csv')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*nope\.csv/);
    const unknown = await server.run(['import', 'excel', 'x.csv']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/expected one of plausible, umami, ga4, matomo/);
  });
});
