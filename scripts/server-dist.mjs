/**
 * The server runs as compiled JavaScript and serves the tracker's and the dashboard's built
 * files; it imports the agent tool set and the API client, and the tests run the command-line
 * client's build. These helpers rebuild them when a source they depend on changed since the last
 * build, and run a file of the server as a child process.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const ROOT_DIR = fileURLToPath(new URL('..', import.meta.url));
export const SERVER_DIR = path.join(ROOT_DIR, 'packages', 'server');
const DIST_DIR = path.join(SERVER_DIR, 'dist');
const TRACKER_DIR = path.join(ROOT_DIR, 'packages', 'tracker');
const DASHBOARD_DIR = path.join(ROOT_DIR, 'packages', 'dashboard');

/** Newest modification time (ms) among the files under `dir` that `include` accepts; 0 when none. */
function newestMtime(dir, include = () => true) {
  if (!existsSync(dir)) return 0;
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(file, include));
    else if (entry.isFile() && include(file)) newest = Math.max(newest, statSync(file).mtimeMs);
  }
  return newest;
}

function isTrackerStale() {
  const built = path.join(TRACKER_DIR, 'dist', 't.js');
  if (!existsSync(built)) return true;
  const newestInput = Math.max(
    newestMtime(path.join(TRACKER_DIR, 'src')),
    statSync(path.join(TRACKER_DIR, 'build.mjs')).mtimeMs,
  );
  return newestInput > statSync(built).mtimeMs;
}

function isDashboardStale() {
  const built = path.join(DASHBOARD_DIR, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const newestInput = Math.max(
    newestMtime(path.join(DASHBOARD_DIR, 'src')),
    newestMtime(path.join(DASHBOARD_DIR, 'public')),
    statSync(path.join(DASHBOARD_DIR, 'index.html')).mtimeMs,
    statSync(path.join(DASHBOARD_DIR, 'vite.config.ts')).mtimeMs,
  );
  return newestInput > statSync(built).mtimeMs;
}

/** A TypeScript library built by plain tsc: stale when a source or its tsconfig is newer than dist. */
function isLibraryStale(name) {
  const dir = path.join(ROOT_DIR, 'packages', name);
  const built = newestMtime(path.join(dir, 'dist'));
  const newestInput = Math.max(
    newestMtime(path.join(dir, 'src')),
    statSync(path.join(dir, 'tsconfig.json')).mtimeMs,
  );
  return built === 0 || newestInput > built;
}

function isStale() {
  if (isTrackerStale() || isDashboardStale()) return true;
  // The server imports the tool set, which imports the client; the tests run the command's build;
  // the Node SDK is built with them so a fresh clone's `npm start` leaves it ready to import.
  if (['client', 'node', 'mcp', 'cli'].some(isLibraryStale)) return true;
  if (!existsSync(path.join(DIST_DIR, 'main.js'))) return true;
  const srcDir = path.join(SERVER_DIR, 'src');
  const testDir = path.join(srcDir, 'test') + path.sep;
  // Tests are not compiled into dist, so editing one must not cost a rebuild.
  const isBuildInput = (file) => !file.endsWith('.test.ts') && !file.startsWith(testDir);
  const tsconfigs = readdirSync(SERVER_DIR)
    .filter((name) => /^tsconfig.*\.json$/.test(name))
    .map((name) => statSync(path.join(SERVER_DIR, name)).mtimeMs);
  const newestInput = Math.max(
    newestMtime(srcDir, isBuildInput),
    newestMtime(path.join(SERVER_DIR, 'migrations')),
    ...tsconfigs,
  );
  return newestInput > newestMtime(DIST_DIR);
}

/** Spawns `command args` with inherited stdio, forwarding SIGINT/SIGTERM; resolves to its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit', ...options });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('error', (error) => {
      process.stderr.write(`could not run ${command}: ${error.message}\n`);
      resolve(1);
    });
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve(code ?? 128 + (constants.signals[signal] ?? 0));
    });
  });
}

/** The workspaces the running server, the tests and the Node SDK's users need built, in build order. */
const SERVER_WORKSPACES = [
  '@touchtrail/tracker',
  '@touchtrail/client',
  '@touchtrail/node',
  '@touchtrail/mcp',
  '@touchtrail/cli',
  '@touchtrail/dashboard',
  '@touchtrail/server',
];
const BUILD_LOCK = path.join(ROOT_DIR, 'node_modules', '.touchtrail-build.lock');
const STALE_LOCK_MS = 10 * 60_000;

/**
 * Holds a lock folder while `work` runs, so two processes (two test runs, `npm start` beside a
 * test run) never build at once and overwrite each other's output. A lock older than ten
 * minutes was left by a killed build and is taken over.
 */
async function whileLocked(work) {
  for (;;) {
    try {
      mkdirSync(BUILD_LOCK);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (Date.now() - statSync(BUILD_LOCK, { throwIfNoEntry: false })?.mtimeMs > STALE_LOCK_MS) {
        rmSync(BUILD_LOCK, { recursive: true, force: true });
      }
      await sleep(200);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(BUILD_LOCK, { recursive: true, force: true });
  }
}

/** Runs the build when a dist folder is missing or older than its inputs; resolves to the exit code. */
export async function buildIfStale() {
  if (!isStale()) return 0;
  return whileLocked(async () => {
    if (!isStale()) return 0;
    process.stderr.write(
      'the compiled server, tracker or dashboard is missing or stale: building them first\n',
    );
    // Under `npm start` this is npm's own CLI, so the build uses the same npm even when `npm` is not on PATH.
    const npmCli = process.env.npm_execpath;
    const [command, prefix] = npmCli?.endsWith('.js') ? [process.execPath, [npmCli]] : ['npm', []];
    const workspaces = SERVER_WORKSPACES.flatMap((name) => ['-w', name]);
    // A production build whoever asks: under vitest NODE_ENV is `test`, which would make Vite build
    // the dashboard with React's development JSX.
    return run(command, [...prefix, 'run', 'build', ...workspaces], {
      cwd: ROOT_DIR,
      env: { ...process.env, NODE_ENV: 'production' },
    });
  });
}

/** Builds if stale, then runs `file` (a path inside packages/server) with `args`, and exits with its code. */
export async function buildAndRunServerFile(file, args = []) {
  const buildCode = await buildIfStale();
  if (buildCode !== 0) process.exit(buildCode);
  // npm runs workspace scripts inside packages/server; the child starts where the user ran npm instead,
  // so a relative DATA_DIR means the same folder to `npm start` and `npm run migrate`.
  const cwd = process.env.INIT_CWD ?? process.cwd();
  process.exit(await run(process.execPath, [path.resolve(SERVER_DIR, file), ...args], { cwd }));
}
