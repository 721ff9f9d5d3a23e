/**
 * An uploaded file as stored in `import_file_chunks`: fixed-size chunks in order, read back one
 * at a time, as a stream of the whole file or of a byte range (a ZIP reader jumps to its central
 * directory, then to each entry). At most one chunk is held in memory.
 */
import { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { ImportFile } from './import-records.js';
import { readChunks } from './imports.store.js';

/** Every chunk but the last has exactly this many bytes. */
export const CHUNK_BYTES = 1024 * 1024;

export function storedFile(db: Kysely<DB>, importId: string, size: number): ImportFile {
  let cached: { seq: number; bytes: Buffer } | undefined;
  let served = 0;
  const chunk = async (seq: number) => {
    if (cached?.seq !== seq) {
      const [row] = await readChunks(db, importId, seq, seq);
      if (!row) throw new Error(`chunk ${seq} of import ${importId} is missing`);
      cached = { seq, bytes: Buffer.from(row.bytes) };
    }
    return cached.bytes;
  };
  const range = (start: number, end: number) =>
    Readable.from(
      (async function* () {
        let at = start;
        while (at < end) {
          const seq = Math.floor(at / CHUNK_BYTES);
          const bytes = await chunk(seq);
          const from = at - seq * CHUNK_BYTES;
          const to = Math.min(bytes.length, end - seq * CHUNK_BYTES);
          if (to <= from) throw new Error(`chunk ${seq} of import ${importId} is short`);
          served += to - from;
          yield bytes.subarray(from, to);
          at += to - from;
        }
      })(),
      { objectMode: false },
    );
  return { size, range, stream: () => range(0, size), served: () => served };
}
