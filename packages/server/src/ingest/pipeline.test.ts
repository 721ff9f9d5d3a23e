/** The step list of pipeline.ts says what the code does: its files exist, its SQL runs in its order. */
import { existsSync } from 'node:fs';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../test/app.js';
import { DROP_REASONS, INGEST_STEPS } from './pipeline.js';

const SRC = new URL('../', import.meta.url);

describe('the ingest pipeline', () => {
  const t = useTestApp({}, { owner: false });

  it('names files that exist for the steps done in Node', () => {
    const missing = INGEST_STEPS.filter(
      (step) => step.runs !== 'database' && !existsSync(new URL(step.by, SRC)),
    ).map((step) => step.by);
    expect(missing).toEqual([]);
  });

  it('lists the database steps in the order touchtrail_ingest calls them', async () => {
    const { rows } = await sql<{ body: string }>`
      select prosrc as body from pg_proc where proname = 'touchtrail_ingest'`.execute(t.database.db);
    expect(rows).toHaveLength(1);
    const body = rows[0]?.body ?? '';
    const calls = INGEST_STEPS.filter((step) => step.runs === 'database').map((step) => ({
      step: step.name,
      // The last step is the function's own update of the site; the others are calls.
      at:
        step.by === 'touchtrail_ingest'
          ? body.indexOf('update sites set verified_at')
          : body.indexOf(`${step.by}(`),
    }));
    expect(calls.filter((call) => call.at < 0)).toEqual([]);
    expect([...calls].sort((a, b) => a.at - b.at)).toEqual(calls);
  });

  it('ends items only with its drop reasons, each of them at some step', () => {
    const ended = new Set(INGEST_STEPS.flatMap((step) => ('ends' in step ? step.ends : [])));
    expect(DROP_REASONS.filter((reason) => !ended.has(reason))).toEqual([]);
    expect([...ended].filter((end) => !(DROP_REASONS as readonly string[]).includes(end)).sort()).toEqual([
      'duplicate',
      'stale_site_facts',
    ]);
  });
});
