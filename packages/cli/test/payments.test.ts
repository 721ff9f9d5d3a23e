/**
 * `payments record` and `payments import`: a backfill counts recorded, duplicate and refused
 * rows, continues from its checkpoint after a stop, and records nothing twice when run again.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPort, freshConfigFolder, jsonOf, useCliServer } from './harness.js';

const server = useCliServer();

/** Rows 4 and 5 are refused by the API, row 7 before sending; row 6 repeats row 2; row 8 refunds row 1. */
const CSV = `transaction_id,amount,currency,provider,email,renewal,refunded_amount,is_free_trial,timestamp
pi_hist_001,49.00,USD,paddle,ada@example.com,false,,,2026-10-03T10:00:00Z
pi_hist_002,99.00,USD,paddle,grace@example.com,true,,,2026-10-05T12:30:00Z
pi_hist_003,0,USD,paddle,,,,true,2026-10-07T08:00:00Z
pi_hist_004,-5,USD,paddle,,,,,2026-10-08T08:00:00Z
pi_hist_005,19.90,EURO,paddle,,,,,2026-10-09T08:00:00Z
pi_hist_002,99.00,USD,paddle,grace@example.com,true,,,2026-10-05T12:30:00Z
pi_hist_006,abc,USD,paddle,,,,,2026-10-10T08:00:00Z
pi_hist_001,49.00,USD,paddle,,,20,,2026-10-12T09:00:00Z
pi_hist_007,1500,JPY,paddle,,,,,2026-10-13T09:00:00Z
`;

function csvFile(name: string, text = CSV): string {
  const file = path.join(freshConfigFolder(), name);
  writeFileSync(file, text);
  return file;
}

const paymentCount = async (provider: string) =>
  (
    await server.t.database.db
      .selectFrom('payments')
      .select('transaction_id')
      .where('provider', '=', provider)
      .execute()
  ).length;

describe('payments', () => {
  it('record posts one payment; a repeat is a duplicate', async () => {
    const first = await server.run([
      'payments',
      'record',
      '--transaction-id',
      'pi_cli_1',
      '--amount',
      '12.50',
      '--currency',
      'usd',
      '--provider',
      'cli',
    ]);
    expect(first.stdout).toBe('recorded: pi_cli_1\n');
    const again = await server.run([
      'payments',
      'record',
      '--transaction-id',
      'pi_cli_1',
      '--amount',
      '12.50',
      '--currency',
      'usd',
      '--provider',
      'cli',
      '--json',
    ]);
    expect(jsonOf(again)).toEqual({
      status: 'duplicate',
      transaction_id: 'pi_cli_1',
      event_id: expect.stringMatching(/^pay_/),
    });
    const bad = await server.run([
      'payments',
      'record',
      '--transaction-id',
      'pi_cli_2',
      '--amount',
      'ten',
      '--currency',
      'USD',
    ]);
    expect(bad.code).toBe(1);
  });

  it('import counts recorded, duplicate and refused rows, and a second run records nothing', async () => {
    const file = csvFile('backfill.csv');
    const run = await server.run(['payments', 'import', file]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe('recorded 5, duplicate 1, refused 3\n');
    expect(run.stderr).toContain('row 4 (pi_hist_004) refused: amount');
    expect(run.stderr).toContain('row 5 (pi_hist_005) refused: currency');
    expect(run.stderr).toContain('row 7 (pi_hist_006) refused: amount "abc" is not a number');
    expect(await paymentCount('paddle')).toBe(4);

    const rerun = await server.run(['payments', 'import', file, '--json']);
    // The refund row answers `refunded` again (re-posting the same total changes nothing).
    expect(jsonOf(rerun)).toMatchObject({ recorded: 1, duplicate: 5, refused: 3, rows: 9, complete: true });
    expect(await paymentCount('paddle')).toBe(4);
  });

  it('a bad header is a usage error before anything is sent', async () => {
    const file = csvFile('wrong.csv', 'transaction,amount\npi_1,10\n');
    const run = await server.run(['payments', 'import', file]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('unknown column transaction; missing column transaction_id, currency');
  });

  it('a stopped import continues from its checkpoint and counts each row once', async () => {
    const file = csvFile('resume.csv', CSV.replaceAll('paddle', 'resumed'));
    const first = await server.run(['payments', 'import', file, '--max-rows', '2', '--concurrency', '1']);
    expect(first.stdout).toBe(
      'recorded 2, duplicate 0, refused 0\nStopped before the end of the file: run the same command again to continue.\n',
    );
    // A crash while row 3 was in flight, after the server had recorded it.
    const checkpoint = `${file}.touchtrail-import.json`;
    const saved = JSON.parse(readFileSync(checkpoint, 'utf8'));
    expect(saved).toMatchObject({ done_through: 2, in_flight: [] });
    const sent = await server.api('POST', '/v1/server/payments', {
      site_id: server.site,
      transaction_id: 'pi_hist_003',
      amount: 0,
      currency: 'USD',
      provider: 'resumed',
      is_free_trial: true,
      timestamp: '2026-10-07T08:00:00Z',
    });
    expect(sent.status).toBe(202);
    writeFileSync(checkpoint, JSON.stringify({ ...saved, in_flight: [3] }));

    const second = await server.run(['payments', 'import', file]);
    expect(second.stderr).toContain('Resuming from row 3');
    expect(second.stdout).toBe('recorded 5, duplicate 1, refused 3\n');
    expect(await paymentCount('resumed')).toBe(4);
  });

  it('an import cut off by the network exits 3 and resumes when the server is back', async () => {
    const file = csvFile('network.csv', CSV.replaceAll('paddle', 'netcut'));
    const down = await server.run(['payments', 'import', file], {
      env: { TOUCHTRAIL_URL: `http://127.0.0.1:${await deadPort()}` },
    });
    expect(down.code).toBe(3);
    expect(down.stderr).toContain('could not reach');
    const back = await server.run(['payments', 'import', file]);
    expect(back.stdout).toBe('recorded 5, duplicate 1, refused 3\n');
    expect(await paymentCount('netcut')).toBe(4);
  });
});
