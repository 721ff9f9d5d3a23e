/** The summary a run prints; sets exit code 1 on any finding. */
import { describeMachine } from '../lib.mjs';

export function report({
  operationCount,
  options,
  engine,
  startLoad,
  stats,
  logCheck,
  seconds,
  exitedEarly,
}) {
  console.log(
    `\nfuzz: ${stats.sent} requests in ${seconds.toFixed(0)} s on ${engine}, seed ${options.seed}, concurrency ${options.concurrency}`,
  );
  if (stats.timedOut)
    console.log(`(stopped at the ${options.maxSeconds} s budget before ${options.requests} requests)`);
  console.log(describeMachine(startLoad));
  console.table({
    requests: { count: stats.sent },
    ...Object.fromEntries(
      Object.entries(stats.byClass)
        .sort()
        .map(([k, v]) => [k, { count: v }]),
    ),
  });
  console.log(
    `by status: ${Object.entries(stats.byStatus)
      .map(([status, n]) => `${status}: ${n}`)
      .join(', ')}`,
  );
  const neverOk = [...stats.byOperation].filter(([, { ok }]) => ok === 0).map(([op]) => op);
  console.log(
    `operations: ${stats.byOperation.size} of ${operationCount} sent to; never answered 2xx: ${neverOk.join(', ') || 'none'}`,
  );
  if (stats.retried > 0)
    console.log(`connections closed before an answer, then retried on a new connection: ${stats.retried}`);
  console.log(`server log: ${logCheck.lines} lines, ${logCheck.errorLines} at error level or above`);
  const all = [...stats.findings, ...logCheck.findings];
  if (exitedEarly) all.push(['the server exited during the run', { count: 1, example: {} }]);
  if (all.length === 0) {
    console.log(
      '\nPASS  no 5xx, no Fastify default body, no stack trace, SQL or secret in a body, no hung request, no unexplained error log',
    );
    return;
  }
  process.exitCode = 1;
  console.log('\nFINDINGS');
  console.table(Object.fromEntries(all.map(([kind, { count }]) => [kind, { count }])));
  for (const [kind, { count, example }] of all) {
    console.log(`\n${kind} (${count}), for example:`);
    for (const [key, value] of Object.entries(example))
      if (value !== undefined) console.log(`  ${key}: ${value}`);
  }
}
