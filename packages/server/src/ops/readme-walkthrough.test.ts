/**
 * The README's "Your first site", followed as a new user would: the compiled server started on
 * fresh storage without a setup token of its own, so it prints one with a setup `curl` line that
 * must be the README's; then every command of the README's ```sh walkthrough blocks run with
 * bash and curl, in order, with the token from the terminal and the values the README says to
 * take from each answer (its `export NAME='…'  # the `field` …` lines), and each answer checked
 * against the one the README shows under its command (`# 201 {…}`: the status, and every field
 * shown, where "…" stands for any text and "tk_live_…" for any text after that prefix).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareServerProcess, type ServerProcess } from '../test/server-process.js';

const README = readFileSync(new URL('../../../../README.md', import.meta.url), 'utf8');
const README_BASE = 'http://localhost:8080';
const TOKEN_PLACEHOLDER = '<token from the terminal>';
/** Background work (attribution) that a reader waits for by asking again. */
const ANSWER_DEADLINE_MS = 15_000;
const OUTPUT_DEADLINE_MS = 10_000;

type Step =
  | { kind: 'command'; text: string; expected?: { status: number; body?: unknown }; line: number }
  | { kind: 'export'; name: string; placeholder: string; field: string; line: number };

/** The steps of every ```sh walkthrough block, in README order. */
function walkthroughSteps(readme: string): Step[] {
  const steps: Step[] = [];
  const lines = readme.split('\n');
  let inBlock = false;
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] as string;
    if (!inBlock) {
      inBlock = line.trim() === '```sh walkthrough';
      continue;
    }
    if (line.startsWith('```')) {
      inBlock = false;
      continue;
    }
    const answer = /^# (\d{3})(?: (.+))?$/.exec(line);
    const exported = /^export (\w+)='([^']*)'\s+# the `(\w+)`/.exec(line);
    if (answer) {
      const last = steps[steps.length - 1];
      if (last?.kind !== 'command') throw new Error(`README line ${index + 1}: an answer without a command`);
      last.expected = {
        status: Number(answer[1]),
        body: answer[2] === undefined ? undefined : JSON.parse(answer[2]),
      };
    } else if (exported) {
      const [, name, placeholder, field] = exported as unknown as [string, string, string, string];
      steps.push({ kind: 'export', name, placeholder, field, line: index + 1 });
    } else if (line.trim() !== '' && !line.startsWith('#')) {
      let text = line;
      while (text.endsWith('\\')) {
        index += 1;
        text += `\n${lines[index]}`;
      }
      steps.push({ kind: 'command', text, line: index + 1 });
    }
  }
  return steps;
}

/** Whether `actual` holds what the README shows: every shown field, "…" for any text. */
function isShownIn(shown: unknown, actual: unknown): boolean {
  if (typeof shown === 'string' && shown.includes('…')) {
    const [prefix = '', suffix = ''] = shown.split('…');
    return (
      typeof actual === 'string' &&
      actual.length > prefix.length + suffix.length &&
      actual.startsWith(prefix) &&
      actual.endsWith(suffix)
    );
  }
  if (Array.isArray(shown))
    return (
      Array.isArray(actual) &&
      actual.length === shown.length &&
      shown.every((item, index) => isShownIn(item, actual[index]))
    );
  if (shown !== null && typeof shown === 'object')
    return (
      actual !== null &&
      typeof actual === 'object' &&
      Object.entries(shown).every(
        ([key, value]) => key in actual && isShownIn(value, (actual as Record<string, unknown>)[key]),
      )
    );
  return shown === actual;
}

/** The first value of `field` in an answer, at any depth (as a reader's eye finds it). */
function findField(value: unknown, field: string): unknown {
  if (value === null || typeof value !== 'object') return undefined;
  if (!Array.isArray(value) && field in value) return (value as Record<string, unknown>)[field];
  for (const item of Object.values(value)) {
    const found = findField(item, field);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Every line of a printed command with its indentation removed, to compare two renderings. */
const unindented = (command: string) =>
  command
    .split('\n')
    .map((line) => line.trim())
    .join('\n');

describe('the README walkthrough', () => {
  let server: ServerProcess;
  let workDir: string;
  let stdout = '';

  beforeAll(async () => {
    // An empty SETUP_TOKEN counts as unset: the server makes a token and prints it.
    server = await prepareServerProcess('readme-walkthrough', { SETUP_TOKEN: '' });
    workDir = await mkdtemp(path.join(tmpdir(), 'touchtrail-readme-'));
  }, 300_000);
  afterAll(async () => {
    await server?.cleanUp();
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('works as written, from the printed setup line to the conversion listing', async () => {
    const steps = walkthroughSteps(README);
    const commands = steps.filter((step) => step.kind === 'command');
    expect(commands.length, 'commands in ```sh walkthrough blocks').toBeGreaterThanOrEqual(8);
    expect(
      commands.every((step) => step.expected),
      'every walkthrough command shows its answer',
    ).toBe(true);

    const child = await server.start({
      onStdout: (text) => {
        stdout += text;
      },
    });
    try {
      // 1. The terminal shows the token and the README's setup line, filled in.
      const printed =
        /one-time setup token:\n\n {2}(\S+)\n\nor create the account from a terminal:\n\n {2}(curl [^\n]*\\\n[^\n]*)\n/;
      const deadline = Date.now() + OUTPUT_DEADLINE_MS;
      while (!printed.test(stdout) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      const [, token, printedCommand] = printed.exec(stdout) ?? [];
      expect(token, `setup token in the start-up output:\n${stdout}`).toBeDefined();
      const port = new URL(server.base).port;
      expect(
        unindented(
          (printedCommand as string)
            .replaceAll(token as string, TOKEN_PLACEHOLDER)
            .replaceAll(`http://localhost:${port}`, README_BASE),
        ),
        'the printed setup command, as the README shows it',
      ).toBe(unindented(commands[0]?.text ?? ''));

      // 2. The snippet's script answers where the README's snippet points.
      const snippet = /<script defer src="([^"]+)" data-site="ttid_…"><\/script>/.exec(README);
      expect(snippet?.[1], 'the snippet in the README').toBe(`${README_BASE}/t.js`);
      const served = await fetch(`${server.base}/t.js`);
      expect(served.status, 'GET of the snippet’s src').toBe(200);
      expect(served.headers.get('content-type')).toMatch(/javascript/);

      // 3. Every command, as a reader runs it; curl also prints the status on a last line.
      const variables: Record<string, string> = {};
      let lastAnswer: unknown;
      for (const step of steps) {
        if (step.kind === 'export') {
          const value = findField(lastAnswer, step.field);
          expect(
            typeof value === 'string' && isShownIn(step.placeholder, value),
            `README line ${step.line}: \`${step.field}\` in the answer before, like '${step.placeholder}' (${JSON.stringify(lastAnswer)})`,
          ).toBe(true);
          variables[step.name] = value as string;
          continue;
        }
        const script = step.text
          .replaceAll(TOKEN_PLACEHOLDER, token as string)
          .replaceAll(README_BASE, server.base);
        const run = () => {
          const result = spawnSync(
            'bash',
            [
              '-c',
              `curl() { command curl --silent --show-error --write-out '\\n%{http_code}' "$@"; }\n${script}`,
            ],
            { cwd: workDir, env: { ...process.env, ...variables }, encoding: 'utf8' },
          );
          const output = result.stdout.split('\n');
          const status = Number(output.pop());
          const text = output.join('\n');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: compared as text
          }
          return { status, body, stderr: result.stderr };
        };
        const expected = step.expected as { status: number; body?: unknown };
        const matches = (answer: ReturnType<typeof run>) =>
          answer.status === expected.status &&
          (expected.body === undefined || isShownIn(expected.body, answer.body));
        let answer = run();
        // A reader asks a report again while background work catches up; writes are sent once.
        const isRead = !/\s(-X|-d|--data)/.test(step.text);
        const readDeadline = Date.now() + ANSWER_DEADLINE_MS;
        while (isRead && !matches(answer) && Date.now() < readDeadline) {
          await new Promise((r) => setTimeout(r, 250));
          answer = run();
        }
        expect(
          { status: answer.status, matchesShown: matches(answer) },
          `README line ${step.line}: ${step.text}\nanswered ${answer.status} ${JSON.stringify(answer.body)} ${answer.stderr}\nshown ${JSON.stringify(expected)}`,
        ).toEqual({ status: expected.status, matchesShown: true });
        lastAnswer = answer.body;
      }
    } finally {
      await server.kill(child, 'SIGTERM');
    }
  }, 120_000);
});
