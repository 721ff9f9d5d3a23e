/**
 * The files inside a ZIP, one after the other, read through the archive's central directory
 * (yauzl) from the stored file's byte ranges, so no entry is held whole in memory.
 */
import type { Readable } from 'node:stream';
import yauzl from 'yauzl';
import { type ImportFile, ImportFileError } from '../import-records.js';

class StoredFileReader extends yauzl.RandomAccessReader {
  constructor(private readonly file: ImportFile) {
    super();
  }
  override _readStreamForRange(start: number, end: number): Readable {
    return this.file.range(start, end);
  }
}

export interface ZipEntry {
  name: string;
  open(): Promise<Readable>;
}

export async function* zipEntries(file: ImportFile): AsyncGenerator<ZipEntry> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(new StoredFileReader(file), file.size, {
      lazyEntries: true,
      autoClose: false,
    });
  } catch (error) {
    throw new ImportFileError(null, `the file is not a ZIP archive (${(error as Error).message})`);
  }
  try {
    for (;;) {
      const entry = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        const onEntry = (found: yauzl.Entry) => done(found);
        const onEnd = () => done(null);
        const onError = (error: Error) => {
          cleanup();
          reject(new ImportFileError(null, `the ZIP archive is damaged (${error.message})`));
        };
        const cleanup = () => {
          zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
        };
        const done = (found: yauzl.Entry | null) => {
          cleanup();
          resolve(found);
        };
        zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
        zip.readEntry();
      });
      if (!entry) return;
      if (entry.fileName.endsWith('/')) continue;
      yield { name: entry.fileName, open: () => zip.openReadStreamPromise(entry) };
    }
  } finally {
    zip.close();
  }
}
