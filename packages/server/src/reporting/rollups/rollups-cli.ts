/**
 * `npm run rollups`: builds the stats rollups of every site now, as the background job does a
 * run at a time, until no day is left to build or older row to count, and exits. For after an upgrade or an import of
 * old traffic, when waiting for the job is not wanted; safe while the server runs.
 */
import { loadConfig } from '../../config.js';
import { configuredDatabase, openDatabase } from '../../db/database.js';
import { migrate } from '../../db/migrate.js';
import { systemClock } from '../../lib/clock.js';
import { createStatsRollups } from './rollup-job.query.js';

const config = loadConfig();
const database = await openDatabase(configuredDatabase(config));
try {
  await migrate(database.db);
  const rollups = createStatsRollups({ db: database.db, clock: systemClock });
  const total = { built: 0, months: 0, stale: 0, counted: 0, goalDays: 0 };
  for (;;) {
    const report = await rollups.runOnce();
    total.built += report.built;
    total.months += report.months;
    total.stale += report.stale;
    total.counted += report.counted;
    total.goalDays += report.goalDays;
    if (report.built + report.months + report.counted + report.goalDays === 0) {
      process.stdout.write(
        `built ${total.built} day(s) and ${total.months} month(s), the goals of ${total.goalDays} day(s), ` +
          `${total.stale} day(s) made stale by identity links, ` +
          `${total.counted} older row(s) given their people count; ` +
          `${report.waiting} day(s) wait for visits that may still go on\n`,
      );
      break;
    }
  }
} finally {
  await database.close();
}
