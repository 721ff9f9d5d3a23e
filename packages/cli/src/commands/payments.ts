/** `touchtrail payments record` (one payment) and `payments import FILE.csv` (a backfill). */
import path from 'node:path';
import { unwrap } from '@touchtrail/client';
import type { Command } from 'commander';
import { action } from '../context.js';
import { runImport } from '../import/run-import.js';
import { example, integerBetween, parseAmount } from '../options.js';
import { dim } from '../output/style.js';

interface RecordFlags {
  transactionId: string;
  amount: number;
  currency: string;
  provider?: string;
  visitorId?: string;
  email?: string;
  customerId?: string;
  renewal?: boolean;
  refunded?: boolean;
  refundedAmount?: number;
  trial?: boolean;
  timestamp?: string;
}

interface ImportFlags {
  concurrency: number;
  checkpoint?: string;
  restart?: boolean;
  maxRows?: number;
}

export const summaryLine = (counts: { recorded: number; duplicate: number; refused: number }) =>
  `recorded ${counts.recorded}, duplicate ${counts.duplicate}, refused ${counts.refused}`;

export function registerPayments(program: Command) {
  const payments = program
    .command('payments')
    .description('Record payments, trials and refunds (needs ingest:write)');

  payments
    .command('record')
    .description('Record one payment, trial or refund')
    .requiredOption('--transaction-id <id>', 'the processor’s payment id (the idempotency key)')
    .requiredOption('--amount <amount>', 'major units (49.90), 0 for a free trial', parseAmount)
    .requiredOption('--currency <code>', 'ISO 4217 code')
    .option('--provider <name>', 'lowercase provider label (default api)')
    .option('--visitor-id <id>', 'visitor id from the visitor cookie (best match)')
    .option('--email <email>', 'the payer’s email, used only to find their visits')
    .option('--customer-id <id>', 'the processor’s customer id')
    .option('--renewal', 'a recurring charge')
    .option('--refunded', 'the payment was refunded (in full unless --refunded-amount)')
    .option('--refunded-amount <amount>', 'total refunded so far, major units', parseAmount)
    .option('--trial', 'a free trial')
    .option('--timestamp <iso>', 'when it was paid (default now)')
    .addHelpText(
      'after',
      example(
        'touchtrail payments record --site ttid_… --transaction-id pi_3Qx… --amount 49.90 --currency EUR --visitor-id 8Jd…',
      ),
    )
    .action(
      action<RecordFlags>(async (ctx, o) => {
        const answer = await unwrap(
          ctx.client.POST('/v1/server/payments', {
            body: {
              site_id: ctx.site(),
              transaction_id: o.transactionId,
              amount: o.amount,
              currency: o.currency,
              provider: o.provider,
              visitor_id: o.visitorId,
              email: o.email,
              customer_id: o.customerId,
              renewal: o.renewal,
              refunded: o.refunded,
              refunded_amount: o.refundedAmount,
              is_free_trial: o.trial,
              timestamp: o.timestamp,
            },
          }),
        );
        ctx.print(answer, () => `${answer.status}: ${answer.transaction_id}\n`);
      }),
    );

  payments
    .command('import')
    .argument('<file>', 'CSV with a header row of payment fields')
    .description('Backfill payments from a CSV: resumable, idempotent by transaction id')
    .option('--concurrency <n>', 'requests in flight, 1 to 16', integerBetween(1, 16), 4)
    .option('--checkpoint <path>', 'where progress is kept (default FILE.touchtrail-import.json)')
    .option('--restart', 'ignore a saved checkpoint and start from the first row')
    .option(
      '--max-rows <n>',
      'send at most this many rows now; run again to continue',
      integerBetween(1, Number.MAX_SAFE_INTEGER),
    )
    .addHelpText(
      'after',
      `\nColumns: transaction_id, amount, currency (required), provider, visitor_id, email, customer_id,\nrenewal, refunded, refunded_amount, is_free_trial, timestamp. Amounts in major units.\n${example('touchtrail payments import --site ttid_… stripe-2025.csv')}`,
    )
    .action(
      action<ImportFlags>(async (ctx, options, args) => {
        const file = path.resolve(args[0] as string);
        const result = await runImport({
          file,
          siteId: ctx.site(),
          client: ctx.client,
          concurrency: options.concurrency,
          checkpointPath: options.checkpoint
            ? path.resolve(options.checkpoint)
            : `${file}.touchtrail-import.json`,
          restart: Boolean(options.restart),
          maxRows: options.maxRows,
          onRefused: (row, reason) => {
            if (!ctx.json)
              ctx.err(
                `row ${row.row} (${row.cells.transaction_id || 'no transaction_id'}) refused: ${reason}\n`,
              );
          },
          onResume: (row) =>
            ctx.err(dim(`Resuming from row ${row} (checkpoint found; --restart starts over).\n`)),
        });
        ctx.print(
          { ...result.counts, rows: result.rows, complete: result.complete, refused_rows: result.refused },
          () =>
            `${summaryLine(result.counts)}\n${result.complete ? '' : dim('Stopped before the end of the file: run the same command again to continue.\n')}`,
        );
      }),
    );
}
