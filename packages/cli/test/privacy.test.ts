/**
 * Privacy requests and the site export from the terminal: two people identified by email
 * through the tracker's endpoint, an access request downloaded to a file, an erasure confirmed
 * with --yes, and the audit trail. The subject's value never appears in what the command prints.
 * The test app runs no background jobs, so the test runs the privacy job once `status --wait`
 * says it is waiting.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { freshConfigFolder, jsonOf, type Run, useCliServer } from './harness.js';

const server = useCliServer();
const ADA = 'ada@example.com';
const GRACE = 'grace@example.com';
const adaVisitor = randomBytes(12).toString('base64url');
const graceVisitor = randomBytes(12).toString('base64url');
const folder = freshConfigFolder();

async function collect(body: Record<string, unknown>) {
  const response = await fetch(`${server.url}/v1/collect`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0' },
    body: JSON.stringify({ eid: randomBytes(12).toString('base64url'), site: server.site, ...body }),
  });
  if (response.status !== 202) throw new Error(`collect answered ${response.status}`);
}

beforeAll(async () => {
  for (const [vid, email] of [
    [adaVisitor, ADA],
    [graceVisitor, GRACE],
  ]) {
    await collect({ type: 'pageview', vid, url: 'https://shop.example.com/pricing', ref: '' });
    await collect({ type: 'identify', vid, url: 'https://shop.example.com/pricing', uid: email });
  }
});

const idOf = (run: Run) => /^Request\s+(\S+)$/m.exec(run.stdout)?.[1] ?? '';

/** `status --wait`, with the privacy job run once the command is polling. */
async function waitFor(id: string, flags: string[] = []): Promise<Run> {
  let job: Promise<unknown> | undefined;
  const run = await server.run(['privacy', 'status', id, '--wait', ...flags], {
    onStart: (child) =>
      child.stderr?.on('data', (chunk) => {
        if (!job && String(chunk).includes('Waiting for request'))
          job = server.t.app.services.privacyJobs.runPrivacyOnce();
      }),
  });
  await job;
  return run;
}

const requestsOnServer = async () =>
  (await server.api<{ requests: { id: string; type: string }[] }>('GET', '/v1/privacy/requests')).body
    .requests;

describe('privacy requests', () => {
  let accessId = '';
  let erasureId = '';

  it('an access request by email completes and its export names the visitor', async () => {
    const asked = await server.run(['privacy', 'request', '--type', 'access', '--email', ADA]);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toMatch(/^Type\s+access$/m);
    expect(asked.stdout).toMatch(/^Subject\s+email \(its value is not kept\)$/m);
    expect(asked.stdout).toMatch(/^Matched\s+1 visitor, 1 visit, \d+ events?, 1 identity link$/m);
    expect(asked.stdout + asked.stderr).not.toContain(ADA);
    accessId = idOf(asked);

    const waited = await waitFor(accessId);
    expect(waited.code, waited.stderr).toBe(0);
    expect(waited.stdout).toMatch(/^Status\s+completed$/m);
    expect(waited.stdout).toContain(`touchtrail privacy export ${accessId} --out FILE`);

    const out = path.join(folder, 'ada.json');
    const exported = await server.run(['privacy', 'export', accessId, '--out', out]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toBe('');
    expect(exported.stderr).toMatch(new RegExp(`^Wrote [\\d,]+ bytes to ${out}\\n$`));
    const text = readFileSync(out, 'utf8');
    expect(JSON.parse(text).visitor_ids).toEqual([adaVisitor]);
    expect(text).not.toContain(ADA);

    const piped = await server.run(['privacy', 'export', accessId]);
    expect(piped.stdout).toBe(text);
  });

  it('an erasure without --yes and without a terminal is refused, and nothing is sent', async () => {
    const refused = await server.run(['privacy', 'request', '--type', 'erasure', '--email', GRACE]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Pass --yes to erase without a prompt.');
    expect(refused.stdout + refused.stderr).not.toContain(GRACE);
    expect((await requestsOnServer()).map((r) => r.type)).toEqual(['access']);
  });

  it('an erasure with --yes completes, and the person matches nothing afterwards', async () => {
    const asked = await server.run(['privacy', 'request', '--type', 'erasure', '--email', GRACE, '--yes']);
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.stdout).toMatch(/^Matched\s+1 visitor, 1 visit, \d+ events?, 1 identity link$/m);
    erasureId = idOf(asked);
    const waited = await waitFor(erasureId, ['--json']);
    expect(waited.code, waited.stderr).toBe(0);
    expect(jsonOf<{ status: string }>(waited).status).toBe('completed');

    const again = await server.run(['privacy', 'request', '--type', 'access', '--email', GRACE, '--json']);
    expect(jsonOf<{ matched: { visitors: number } }>(again).matched.visitors).toBe(0);
  });

  it('list is the audit trail; --all follows every page', async () => {
    const list = await server.run(['privacy', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+CREATED\s+TYPE\s+SUBJECT\s+STATUS\s+MATCHED$/m);
    expect(list.stdout).toMatch(
      new RegExp(`^${accessId}\\s.+\\saccess\\s+email\\s+completed\\s+1 visitor`, 'm'),
    );
    expect(list.stdout).toMatch(
      new RegExp(`^${erasureId}\\s.+\\serasure\\s+email\\s+completed\\s+1 visitor`, 'm'),
    );
    expect(list.stdout + list.stderr).not.toContain(ADA);
    expect(list.stdout + list.stderr).not.toContain(GRACE);

    const paged = await server.run(['privacy', 'list', '--limit', '1', '--all', '--json']);
    const answer = jsonOf<{ requests: { id: string }[]; next_cursor: string | null }>(paged);
    expect(answer.next_cursor).toBeNull();
    expect(answer.requests.map((r) => r.id)).toEqual((await requestsOnServer()).map((r) => r.id));
    expect(answer.requests).toHaveLength(3);
  });

  it('refuses two subjects or an unknown type before anything is sent', async () => {
    const before = (await requestsOnServer()).length;
    const two = await server.run([
      'privacy',
      'request',
      '--type',
      'access',
      '--email',
      ADA,
      '--user-id',
      'u-7',
    ]);
    expect(two.code).toBe(1);
    expect(two.stderr).toContain('touchtrail: name the person with one id, not --email and --user-id');
    expect(two.stderr).not.toContain(ADA);
    const none = await server.run(['privacy', 'request', '--type', 'access']);
    expect(none.code).toBe(1);
    const unknown = await server.run(['privacy', 'request', '--type', 'rectify', '--email', ADA]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("option '--type <type>' argument 'rectify' is invalid");
    expect(await requestsOnServer()).toHaveLength(before);
  });
});

describe('sites export', () => {
  it('writes a csv of visits to the file as it arrives', async () => {
    const out = path.join(folder, 'visits.csv');
    const run = await server.run(['sites', 'export', '--format', 'csv', '--records', 'visits', '--out', out]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(/^Wrote [\d,]+ bytes to /);
    const [header, ...rows] = readFileSync(out, 'utf8').trimEnd().split('\n');
    expect(header).toMatch(/^id,/);
    expect(rows).toHaveLength(1); // Grace's visit was erased
  });

  it('refuses csv without exactly one record kind, and an unknown kind', async () => {
    const many = await server.run(['sites', 'export', '--format', 'csv']);
    expect(many.code).toBe(1);
    expect(many.stderr).toContain('a csv export holds one kind of record');
    const unknown = await server.run(['sites', 'export', '--records', 'visits,crawlers']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('expected one of visits, events, payments');
  });
});
