/**
 * The README's events-and-payments example, run as it is written (saved as a file in the
 * repository, with the built package) against the real server.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type Owner, setUpOwner, type TestApp } from '../../server/src/test/app.js';
import { insertSite } from '../../server/src/test/factories.js';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const EXAMPLE = /```js\n(import \{ Touchtrail, TouchtrailError \}[\s\S]*?)```/.exec(README)?.[1] ?? '';
const run = promisify(execFile);

describe('the README example', () => {
  let t: TestApp;
  let owner: Owner;
  let endpoint: string;
  beforeAll(async () => {
    t = await createTestApp();
    owner = await setUpOwner(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    endpoint = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => t.close());

  it('records the conversion, the payment and its refund, and shows the refusal', async () => {
    expect(EXAMPLE).toContain("from '@touchtrail/node'");
    const site = await insertSite(t, owner.accountId, { domain: 'readme.example.com' });
    const file = fileURLToPath(new URL(`../readme-example-${process.pid}.mjs`, import.meta.url));
    await writeFile(file, EXAMPLE);
    try {
      const { stdout, stderr } = await run(process.execPath, [file], {
        env: {
          PATH: process.env.PATH ?? '',
          TOUCHTRAIL_API_KEY: owner.apiKey,
          TOUCHTRAIL_SITE: site.snippet_key,
          TOUCHTRAIL_URL: endpoint,
        },
      });
      expect(stdout.match(/status: 'recorded'/g)).toHaveLength(2);
      expect(stdout).toContain("status: 'refunded'");
      expect(stdout).toContain("transaction_id: 'ch_123'");
      expect(stderr).toMatch(/^amount POST \/v1\/server\/payments answered 422 validation_failed \(amount: /);
    } finally {
      await rm(file, { force: true });
    }
  });
});
