/**
 * Where an import stands, saved after every answer so a run stopped at any point (Ctrl-C, a
 * crash, a lost connection) continues where it stopped. Rows finish out of order with
 * several requests in flight, so it keeps the last row before which all are done, the rows
 * done past it, and the rows sent but unanswered: one of those answering `duplicate` on the
 * next run was recorded by the run that stopped.
 */
import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { UsageError } from '../errors.js';

export type Outcome = 'recorded' | 'duplicate' | 'refused';

export interface Counts {
  recorded: number;
  duplicate: number;
  refused: number;
}

interface Saved {
  file: string;
  site_id: string;
  size: number;
  modified_ms: number;
  done_through: number;
  done_after: number[];
  in_flight: number[];
  counts: Counts;
}

export class Checkpoint {
  private doneThrough = 0;
  private readonly doneAfter = new Set<number>();
  private readonly inFlight = new Set<number>();
  /** Rows in flight when the earlier run stopped. */
  readonly interrupted: ReadonlySet<number>;
  readonly counts: Counts = { recorded: 0, duplicate: 0, refused: 0 };
  readonly resumedAt: number;

  private constructor(
    private readonly path: string,
    private readonly identity: Pick<Saved, 'file' | 'site_id' | 'size' | 'modified_ms'>,
    saved: Saved | undefined,
  ) {
    if (saved) {
      this.doneThrough = saved.done_through;
      for (const row of saved.done_after) this.doneAfter.add(row);
      Object.assign(this.counts, saved.counts);
    }
    this.interrupted = new Set(saved?.in_flight ?? []);
    this.resumedAt = saved ? saved.done_through + 1 : 0;
  }

  /** Opens the checkpoint of `file` for `siteId`, refusing one left by a different file or site. */
  static open(path: string, file: string, siteId: string, restart: boolean): Checkpoint {
    const stat = statSync(file);
    const identity = { file, site_id: siteId, size: stat.size, modified_ms: Math.trunc(stat.mtimeMs) };
    if (restart) rmSync(path, { force: true });
    let saved: Saved | undefined;
    try {
      saved = JSON.parse(readFileSync(path, 'utf8')) as Saved;
    } catch {
      saved = undefined;
    }
    if (
      saved &&
      (saved.site_id !== siteId || saved.size !== identity.size || saved.modified_ms !== identity.modified_ms)
    )
      throw new UsageError(
        `the checkpoint ${path} belongs to another site or an earlier version of the file`,
        'Pass --restart to import the file from its first row (rows already recorded answer duplicate).',
      );
    return new Checkpoint(path, identity, saved);
  }

  isDone(row: number): boolean {
    return row <= this.doneThrough || this.doneAfter.has(row);
  }

  start(row: number): void {
    this.inFlight.add(row);
    this.save();
  }

  finish(row: number, outcome: Outcome): void {
    this.inFlight.delete(row);
    this.counts[outcome] += 1;
    this.doneAfter.add(row);
    while (this.doneAfter.has(this.doneThrough + 1)) {
      this.doneThrough += 1;
      this.doneAfter.delete(this.doneThrough);
    }
    this.save();
  }

  /** Unanswered rows are kept as interrupted, so a later run still counts them right. */
  save(): void {
    const saved: Saved = {
      ...this.identity,
      done_through: this.doneThrough,
      done_after: [...this.doneAfter],
      in_flight: [...new Set([...this.inFlight, ...this.interrupted])].filter((row) => !this.isDone(row)),
      counts: this.counts,
    };
    const draft = `${this.path}.tmp`;
    writeFileSync(draft, JSON.stringify(saved));
    renameSync(draft, this.path);
  }

  remove(): void {
    rmSync(this.path, { force: true });
  }
}
