/** A one-line progress bar on stderr, redrawn in place; silent when stderr is not a terminal. */
import type { Counts } from './checkpoint.js';

const BAR_WIDTH = 24;
const REDRAW_MS = 100;

export function createProgress(total: number) {
  const isOn = Boolean(process.stderr.isTTY);
  let drawnAt = 0;
  const draw = (done: number, counts: Counts, force = false) => {
    if (!isOn || (!force && Date.now() - drawnAt < REDRAW_MS)) return;
    drawnAt = Date.now();
    const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_WIDTH - filled)}`;
    process.stderr.write(
      `\r${bar} ${done}/${total} rows · recorded ${counts.recorded}, duplicate ${counts.duplicate}, refused ${counts.refused}`,
    );
  };
  return {
    update: draw,
    end(done: number, counts: Counts) {
      draw(done, counts, true);
      if (isOn) process.stderr.write('\n');
    },
  };
}
