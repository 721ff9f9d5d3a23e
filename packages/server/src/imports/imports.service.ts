/**
 * Imports of a site's history (DESIGN.md §14): the upload, stored as it streams in and
 * acknowledged once whole (a 202 means the file is committed and the import queued), listing,
 * status, cancel and removal. The work itself is the import job (import-job.ts).
 */
import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Principal } from '../access/principal.js';
import type { ImportSource } from '../db/import-types.js';
import type { DB } from '../db/types.js';
import { AppError, badInput, notFound } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { newId, UUID_PATTERN } from '../lib/ids.js';
import type { SitesService } from '../sites/sites.service.js';
import { CHUNK_BYTES } from './import-file.js';
import * as store from './imports.store.js';

/** The largest file an import takes: 2 GiB. */
export const IMPORT_MAX_BYTES = 2 * 1024 * 1024 * 1024;

function presentImport(row: store.ImportRow) {
  return {
    id: row.id,
    source: row.source,
    status: row.status,
    progress: {
      bytes_read: row.bytes_read,
      bytes_total: row.bytes_total,
      rows_read: row.rows_read,
      rows_refused: row.rows_refused,
    },
    date_range: row.date_from && row.date_to ? ([row.date_from, row.date_to] as [string, string]) : null,
    kept_before: row.native_from,
    error: row.error_message === null ? null : { line: row.error_line, message: row.error_message },
    created_at: new Date(row.created_at).toISOString(),
    finished_at: row.finished_at === null ? null : new Date(row.finished_at).toISOString(),
  };
}

export type ImportView = ReturnType<typeof presentImport>;

const importIdOf = (id: string) => {
  if (!UUID_PATTERN.test(id)) throw notFound('Import');
  return id.toLowerCase();
};

export function createImportsService({
  db,
  clock,
  sites,
  onQueued = () => {},
}: {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
  /** An import was queued (the worker of this process starts it without waiting for its tick). */
  onQueued?: () => void;
}) {
  const siteOf = (principal: Principal, ref: string, includeScheduled: boolean) =>
    sites.resolveSite(principal, ref, { includeScheduled });

  return {
    /**
     * Stores the body in chunks as it arrives, then queues the import; the same file uploaded again
     * for the same site and source answers the import it already has.
     */
    async upload(
      principal: Principal,
      siteRef: string,
      source: ImportSource,
      body: Readable | undefined,
    ): Promise<{ created: boolean; import: ImportView }> {
      const site = await siteOf(principal, siteRef, false);
      // An empty body reaches no parser: there is no stream to read.
      if (typeof body?.on !== 'function') throw badInput('body', 'body: the file is empty');
      const id = newId();
      const hash = createHash('sha256');
      let size = 0;
      let seq = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const writeChunk = async (bytes: Buffer) => {
        await store.insertChunk(db, id, seq, bytes, clock.now());
        seq += 1;
      };
      try {
        for await (const piece of body as AsyncIterable<Buffer>) {
          size += piece.length;
          if (size > IMPORT_MAX_BYTES) {
            throw new AppError(413, 'payload_too_large', 'An import file is at most 2 GiB');
          }
          hash.update(piece);
          pending.push(piece);
          pendingBytes += piece.length;
          while (pendingBytes >= CHUNK_BYTES) {
            const all = Buffer.concat(pending);
            await writeChunk(all.subarray(0, CHUNK_BYTES));
            pending = [all.subarray(CHUNK_BYTES)];
            pendingBytes = all.length - CHUNK_BYTES;
          }
        }
        if (pendingBytes > 0) await writeChunk(Buffer.concat(pending));
        if (size === 0) throw badInput('body', 'body: the file is empty');
        const sha256 = hash.digest('hex');
        const at = clock.now();
        const inserted = await store.insertImport(db, {
          id,
          siteId: site.id,
          source,
          sha256,
          bytes: size,
          at,
        });
        if (!inserted) {
          await store.deleteChunks(db, id);
          const existing = await store.findSameFile(db, site.id, source, sha256);
          if (!existing) throw new AppError(409, 'conflict', 'The same file is being imported; try again');
          return { created: false, import: presentImport(existing) };
        }
        const row = await store.findImport(db, site.id, id);
        if (!row) throw new Error('a stored import was not found');
        onQueued();
        return { created: true, import: presentImport(row) };
      } catch (error) {
        body.destroy();
        await store.deleteChunks(db, id).catch(() => undefined);
        throw error;
      }
    },

    async list(principal: Principal, siteRef: string) {
      const site = await siteOf(principal, siteRef, true);
      return (await store.listImports(db, site.id)).map(presentImport);
    },

    async get(principal: Principal, siteRef: string, id: string) {
      const site = await siteOf(principal, siteRef, true);
      const row = await store.findImport(db, site.id, importIdOf(id));
      if (!row) throw notFound('Import');
      return presentImport(row);
    },

    /**
     * Cancels an import still pending or running (it stays listed as `cancelled`), or removes an
     * ended one with every row it wrote.
     */
    async remove(principal: Principal, siteRef: string, id: string): Promise<'cancelled' | 'removed'> {
      const site = await siteOf(principal, siteRef, true);
      const importId = importIdOf(id);
      if (await store.cancelImport(db, site.id, importId, clock.now())) {
        await store.deleteStaged(db, importId);
        return 'cancelled';
      }
      if (await store.removeImport(db, site.id, importId)) return 'removed';
      throw notFound('Import');
    },
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
