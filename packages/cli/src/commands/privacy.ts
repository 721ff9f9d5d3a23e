/**
 * `touchtrail privacy`: data-subject requests (access and erasure), their audit trail and the
 * access export. The subject's value is sent once and never printed, in output or in errors.
 */
import { createInterface } from 'node:readline/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { type operations, unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action } from '../context.js';
import { UsageError } from '../errors.js';
import { example, integerBetween, oneOf } from '../options.js';
import { downloadTo } from '../output/download.js';
import { formatNumber, formatTime } from '../output/format.js';
import { dim } from '../output/style.js';
import { renderDetails, renderTable } from '../output/table.js';

type PrivacyRequest = operations['getPrivacyRequest']['responses'][200]['content']['application/json'];
type RequestType = PrivacyRequest['type'];
type Matched = PrivacyRequest['matched'];

const POLL_MS = 2_000;
const DEFAULT_WAIT_SECONDS = 300;

/** The flags that name the person, in the order the help lists them, with the API's kind. */
const SUBJECT_FLAGS = [
  {
    option: 'email',
    flag: '--email',
    value: '<address>',
    kind: 'email',
    help: 'an email, as sent with identify, server events or payments',
  },
  {
    option: 'userId',
    flag: '--user-id',
    value: '<id>',
    kind: 'user_id',
    help: 'your id of the signed-in person',
  },
  {
    option: 'visitorId',
    flag: '--visitor-id',
    value: '<id>',
    kind: 'visitor_id',
    help: 'the browser’s visitor id (touchtrail.getVisitorId())',
  },
  {
    option: 'handle',
    flag: '--handle',
    value: '<vh_…>',
    kind: 'handle',
    help: 'a handle from the goal visitors list',
  },
  {
    option: 'customerId',
    flag: '--customer-id',
    value: '<id>',
    kind: 'customer_id',
    help: 'a payment’s customer id',
  },
] as const;
type SubjectOptions = Partial<Record<(typeof SUBJECT_FLAGS)[number]['option'], string>>;
const ALL_SUBJECT_FLAGS = SUBJECT_FLAGS.map((s) => s.flag).join(', ');

/** Exactly one subject flag; the message names the flags given, never their values. */
function subjectOf(options: SubjectOptions) {
  const given = SUBJECT_FLAGS.filter((s) => options[s.option] !== undefined);
  const [only] = given;
  if (given.length !== 1 || !only)
    throw new UsageError(
      given.length === 0
        ? 'name the person with one id'
        : `name the person with one id, not ${given.map((s) => s.flag).join(' and ')}`,
      `Pass exactly one of ${ALL_SUBJECT_FLAGS}.`,
    );
  return { kind: only.kind, value: options[only.option] as string };
}

/** On a terminal, asks for the word; elsewhere `--yes` is the only way to confirm. */
async function confirmErasure(site: string): Promise<void> {
  if (!process.stdin.isTTY)
    throw new UsageError(
      'an erasure needs confirmation, and there is no terminal to ask on',
      'Pass --yes to erase without a prompt.',
    );
  const prompt = createInterface({ input: process.stdin, output: process.stderr });
  const cancel = new AbortController();
  prompt.on('SIGINT', () => cancel.abort());
  prompt.on('close', () => cancel.abort());
  try {
    process.stderr.write(
      `This deletes the person's visits, events, identity links and visitor ids on ${site}, with no undo.\n` +
        'To see first what matches, make an access request.\n',
    );
    const answer = await prompt
      .question('Type erase to confirm: ', { signal: cancel.signal })
      .catch(() => '');
    if (answer.trim() !== 'erase') throw new UsageError('erasure not confirmed: nothing was sent');
  } finally {
    prompt.close();
  }
}

const plural = (count: number, one: string, many = `${one}s`) =>
  `${formatNumber(count)} ${count === 1 ? one : many}`;

/** `2 visitors, 14 visits, 1 payment`: what was found, zeros left out. */
function matchedSummary(matched: Matched): string {
  const parts = [
    [matched.visitors, 'visitor'],
    [matched.visits, 'visit'],
    [matched.events, 'event'],
    [matched.identity_links, 'identity link'],
    [matched.payments, 'payment'],
    [matched.refunds, 'refund'],
  ] as const;
  const found = parts.filter(([count]) => count > 0).map(([count, noun]) => plural(count, noun));
  return found.length > 0 ? found.join(', ') : 'nothing';
}

function renderRequest(request: PrivacyRequest): string {
  const rows: [string, string][] = [
    ['Request', request.id],
    ['Site', request.site_id],
    ['Type', request.type],
    ['Status', request.status],
    ['Subject', `${request.subject.kind} (its value is not kept)`],
    ['Matched', matchedSummary(request.matched)],
    ['Created', formatTime(request.created_at)],
    ['Completed', formatTime(request.completed_at)],
  ];
  if (request.export_url)
    rows.push([
      'Export',
      `touchtrail privacy export ${request.id} --out FILE (until ${formatTime(request.export_expires_at)})`,
    ]);
  if (request.error) rows.push(['Error', request.error]);
  return renderDetails(rows);
}

const requestTable = (requests: PrivacyRequest[]) =>
  renderTable(
    [
      { header: 'Id' },
      { header: 'Created' },
      { header: 'Type' },
      { header: 'Subject' },
      { header: 'Status' },
      { header: 'Matched' },
    ],
    requests.map((r) => [
      r.id,
      formatTime(r.created_at),
      r.type,
      r.subject.kind,
      r.status,
      matchedSummary(r.matched),
    ]),
    'No privacy requests yet.',
  );

const isSettled = (request: PrivacyRequest) => request.status === 'completed' || request.status === 'failed';

export function registerPrivacy(program: Command) {
  const privacy = program
    .command('privacy')
    .description('Data-subject requests: what you hold about a person (access), or erase it');

  const request = privacy
    .command('request')
    .description('Ask for everything stored about a person (access), or delete it (erasure)')
    .requiredOption('--type <type>', 'access or erasure', oneOf(['access', 'erasure'] as const));
  for (const { flag, value, help } of SUBJECT_FLAGS) request.option(`${flag} ${value}`, help);
  request
    .option('--yes', 'erase without the prompt (needed when there is no terminal)')
    .addHelpText(
      'after',
      `\nName the person with exactly one of ${ALL_SUBJECT_FLAGS}.\n` +
        example(
          'touchtrail privacy request --type access --email ada@example.com --site ttid_…',
          'touchtrail privacy request --type erasure --user-id 4711 --yes',
        ),
    )
    .action(
      action<SubjectOptions & { type: RequestType; yes?: boolean }>(async (ctx, options) => {
        const subject = subjectOf(options);
        const site = ctx.site();
        if (options.type === 'erasure' && !options.yes) await confirmErasure(site);
        const created = await unwrap(
          ctx.client.POST('/v1/privacy/requests', { body: { site_id: site, type: options.type, subject } }),
        );
        ctx.print(
          created,
          () => `${renderRequest(created)}Follow it with: touchtrail privacy status ${created.id} --wait\n`,
        );
      }),
    );

  privacy
    .command('list')
    .description('The audit trail, newest first: who asked, when, what type, what matched')
    .option('--limit <n>', 'requests per page, 1 to 100 (default 50)', integerBetween(1, 100))
    .option('--cursor <cursor>', 'the cursor printed under the previous page')
    .option('--all', 'follow every page')
    .addHelpText(
      'after',
      example('touchtrail privacy list --site ttid_…', 'touchtrail privacy list --all --json'),
    )
    .action(
      action<{ limit?: number; cursor?: string; all?: boolean }>(async (ctx, options) => {
        const requests: PrivacyRequest[] = [];
        let cursor = options.cursor;
        let nextCursor: string | null;
        do {
          const page = await unwrap(
            ctx.client.GET('/v1/privacy/requests', {
              params: {
                query: {
                  ...(ctx.settings.site ? { site_id: ctx.settings.site } : {}),
                  ...(options.limit ? { limit: options.limit } : {}),
                  ...(cursor ? { cursor } : {}),
                },
              },
            }),
          );
          requests.push(...page.requests);
          nextCursor = page.next_cursor;
          cursor = nextCursor ?? undefined;
        } while (options.all && nextCursor);
        ctx.print(
          { requests, next_cursor: nextCursor },
          () =>
            requestTable(requests) +
            (nextCursor ? dim(`More: touchtrail privacy list --cursor ${nextCursor} (or --all)\n`) : ''),
        );
      }),
    );

  privacy
    .command('status')
    .argument('<id>', 'request id (privacy list)')
    .description('A request’s status and what it matched')
    .option('--wait', `check every ${POLL_MS / 1000} s until it completes (exit 1 if it failed)`)
    .option(
      '--timeout <seconds>',
      `with --wait, give up after this long (default ${DEFAULT_WAIT_SECONDS})`,
      integerBetween(1, 86_400),
    )
    .addHelpText('after', example('touchtrail privacy status 9b0e6f3c-…-uuid --wait'))
    .action(
      action<{ wait?: boolean; timeout?: number }>(async (ctx, options, args) => {
        const id = args[0] as string;
        const read = () => unwrap(ctx.client.GET('/v1/privacy/requests/{id}', { params: { path: { id } } }));
        const timeoutSeconds = options.timeout ?? DEFAULT_WAIT_SECONDS;
        const deadline = Date.now() + timeoutSeconds * 1000;
        let current = await read();
        if (options.wait && !isSettled(current)) ctx.err(`Waiting for request ${id} (${current.status})…\n`);
        while (options.wait && !isSettled(current)) {
          if (Date.now() + POLL_MS > deadline)
            throw new UsageError(
              `request ${id} is still ${current.status} after ${timeoutSeconds} s`,
              `Check again later: touchtrail privacy status ${id} --wait`,
            );
          await sleep(POLL_MS);
          current = await read();
        }
        ctx.print(current, () => renderRequest(current));
        if (options.wait && current.status === 'failed')
          throw new Error(`request ${id} failed; make the request again (touchtrail privacy request)`);
      }),
    );

  privacy
    .command('export')
    .argument('<id>', 'id of a completed access request')
    .description('Download an access request’s export: one JSON document, written as it arrives')
    .option('--out <file>', 'write it to this file (default stdout)')
    .addHelpText('after', example('touchtrail privacy export 9b0e6f3c-…-uuid --out ada.json'))
    .action(
      action<{ out?: string }>(async (ctx, options, args) => {
        const id = args[0] as string;
        await downloadTo(
          ctx,
          `/v1/privacy/requests/${id}/export`,
          (client) =>
            client.GET('/v1/privacy/requests/{id}/export', { params: { path: { id } }, parseAs: 'stream' }),
          options.out,
        );
      }),
    );
}
