/**
 * Group commit: callers submit items and wait; items that arrive while a batch is being written
 * join the next one, which starts as soon as the current one commits. When the writer is idle,
 * a batch starts `maxWaitMs` after its first item, or with 0 on the next turn of the event loop
 * (items whose requests were read in the same turn share it, and none waits longer). Each
 * caller's promise settles with its own item's result only after its batch committed; if writing the batch fails, every caller in
 * it is rejected and nothing of it was acknowledged. When the failure may lie in one item's data
 * rather than in the database (`isItemError`), the batch's items are written again one at a time,
 * so a bad item fails only its own caller.
 */
export interface GroupCommitOptions {
  maxBatch: number;
  maxWaitMs: number;
  isItemError?: (error: unknown) => boolean;
}

interface Pending<T, R> {
  item: T;
  resolve: (result: R) => void;
  reject: (error: unknown) => void;
}

export class GroupCommitter<T, R> {
  #queue: Pending<T, R>[] = [];
  #writing: Promise<void> | null = null;
  #cancelStart: (() => void) | null = null;

  constructor(
    private readonly write: (items: T[]) => Promise<R[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.#queue.push({ item, resolve, reject });
      if (this.#writing) return;
      if (this.#queue.length >= this.options.maxBatch) this.#startNow();
      else this.#cancelStart ??= this.#startSoon();
    });
  }

  /** Writes everything queued and waits for it (used on shutdown). */
  async drain(): Promise<void> {
    while (this.#writing || this.#queue.length > 0) {
      if (!this.#writing) this.#startNow();
      await this.#writing;
    }
  }

  #startSoon(): () => void {
    if (this.options.maxWaitMs === 0) {
      const immediate = setImmediate(() => this.#startNow());
      return () => clearImmediate(immediate);
    }
    const timer = setTimeout(() => this.#startNow(), this.options.maxWaitMs);
    return () => clearTimeout(timer);
  }

  #startNow(): void {
    this.#cancelStart?.();
    this.#cancelStart = null;
    if (this.#writing || this.#queue.length === 0) return;
    const batch = this.#queue.splice(0, this.options.maxBatch);
    this.#writing = this.#run(batch).finally(() => {
      this.#writing = null;
      if (this.#queue.length > 0) this.#startNow();
    });
  }

  async #run(batch: Pending<T, R>[]): Promise<void> {
    let settle: () => void;
    try {
      const results = await this.write(batch.map((pending) => pending.item));
      settle = () => {
        batch.forEach((pending, index) => {
          pending.resolve(results[index] as R);
        });
      };
    } catch (error) {
      if (batch.length > 1 && this.options.isItemError?.(error)) return this.#runEach(batch);
      settle = () => {
        for (const pending of batch) pending.reject(error);
      };
    }
    // The callers are answered on the next turn of the event loop, after the next batch has
    // been started (#startNow runs when this promise settles): answering a batch is a few
    // milliseconds of HTTP work, which the database then spends on the next batch, not idle.
    setImmediate(settle);
  }

  async #runEach(batch: Pending<T, R>[]): Promise<void> {
    for (const pending of batch) {
      try {
        const [result] = await this.write([pending.item]);
        pending.resolve(result as R);
      } catch (error) {
        pending.reject(error);
      }
    }
  }
}
