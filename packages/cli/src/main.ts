/** Runs one `touchtrail` command and exits with its code (0 ok, 1 usage, 2 API, 3 network). */
import { CommanderError } from 'commander';
import { EXIT_OK, reportFailure } from './errors.js';
import { buildProgram } from './program.js';

async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT_OK;
  } catch (error) {
    // Commander has already printed its own message (unknown option, --help, --version).
    if (error instanceof CommanderError) return error.exitCode;
    return reportFailure(error, (text) => process.stderr.write(text));
  }
}

process.exitCode = await main(process.argv.slice(2));
