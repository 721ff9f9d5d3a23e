/**
 * Privacy requests (DESIGN.md §12): a data subject's access or erasure request, made
 * by an account-wide admin (a session, or a key with `config:write` whose creator still is one),
 * resolved at once to the person it names, and worked by the privacy job (privacy-jobs.ts).
 */
import type { Kysely } from 'kysely';
import { requireAdmin } from '../access/admin.js';
import { type Principal, requireScope } from '../access/principal.js';
import type { DB } from '../db/types.js';
import { AppError, badInput, notFound } from '../http/errors.js';
import type { Clock } from '../lib/clock.js';
import { newId, UUID_PATTERN } from '../lib/ids.js';
import { createHandleCodec } from '../people/visitor-handles.js';
import { type ClickHouseReads, requireWholeInPostgres } from '../reporting/clickhouse/ch-read.js';
import type { SitesService } from '../sites/sites.service.js';
import { accessExport } from './access-export.js';
import { type CreateRequestBody, DEFAULT_PAGE, type ListQuery } from './privacy.schemas.js';
import * as store from './privacy.store.js';
import { countMatched, storeScope } from './scope.store.js';
import { auditHash, seedOf } from './subject.js';

const NO_MATCHES = { visitors: 0, visits: 0, events: 0, identity_links: 0, payments: 0, refunds: 0 };

export function createPrivacyService(deps: {
  db: Kysely<DB>;
  clock: Clock;
  sites: Pick<SitesService, 'resolveSite'>;
  secretKey: string;
  publicUrl: string;
  clickhouse?: ClickHouseReads;
}) {
  const { db, clock, secretKey, clickhouse } = deps;
  const handles = createHandleCodec(secretKey);

  async function requirePrivacyAdmin(principal: Principal) {
    requireScope(principal, 'config:write');
    await requireAdmin(db, principal);
  }

  const resolveSite = (principal: Principal, ref: string) =>
    deps.sites.resolveSite(principal, UUID_PATTERN.test(ref) ? { id: ref.toLowerCase() } : ref, {
      includeScheduled: true,
    });

  function present(row: store.RequestRow) {
    const exportable =
      row.type === 'access' &&
      row.status === 'completed' &&
      row.export_expires_at !== null &&
      row.export_expires_at > clock.now();
    return {
      id: row.id,
      site_id: row.snippet_key,
      type: row.type,
      status: row.status,
      subject: { kind: row.subject_kind },
      matched: row.matched ?? NO_MATCHES,
      requested_by: { user_id: row.requested_by_user, key_id: row.requested_by_key },
      created_at: row.created_at.toISOString(),
      completed_at: row.completed_at?.toISOString() ?? null,
      export_url: exportable ? `${deps.publicUrl}/v1/privacy/requests/${row.id}/export` : null,
      export_expires_at: row.type === 'access' ? (row.export_expires_at?.toISOString() ?? null) : null,
      error: row.status === 'completed' ? null : row.last_error,
    };
  }

  /** A key restricted to one site sees only that site's requests. */
  const onlySite = (principal: Principal) => (principal.kind === 'key' ? principal.siteId : null);

  async function requireRequest(principal: Principal, id: string) {
    const row = await store.findRequest(db, principal.accountId, id);
    const only = onlySite(principal);
    if (!row || (only !== null && row.site_id !== only)) throw notFound('Privacy request');
    return row;
  }

  return {
    async create(principal: Principal, body: CreateRequestBody) {
      await requirePrivacyAdmin(principal);
      const site = await resolveSite(principal, body.site_id);
      const id = newId();
      const ref = { requestId: id, siteId: site.id };
      await db.transaction().execute(async (trx) => {
        await store.insertRequest(trx, {
          id,
          account_id: principal.accountId,
          site_id: site.id,
          type: body.type,
          subject_kind: body.subject.kind,
          subject_hash: auditHash(secretKey, body.subject),
          requested_by_user: principal.kind === 'session' ? principal.userId : principal.createdBy,
          requested_by_key: principal.kind === 'key' ? principal.keyId : null,
          created_at: clock.now(),
        });
        await storeScope(trx, ref, await seedOf(trx, { secretKey, handles }, site.id, body.subject));
        const matched = await countMatched(trx, ref, clickhouse);
        await store.setMatched(trx, id, matched);
      });
      return present((await store.findRequest(db, principal.accountId, id)) as store.RequestRow);
    },

    async get(principal: Principal, id: string) {
      await requirePrivacyAdmin(principal);
      return present(await requireRequest(principal, id));
    },

    async list(principal: Principal, query: ListQuery) {
      await requirePrivacyAdmin(principal);
      const site = query.site_id ? await resolveSite(principal, query.site_id) : null;
      const limit = query.limit ?? DEFAULT_PAGE;
      const rows = await store.listRequests(db, principal.accountId, {
        siteId: site?.id ?? onlySite(principal),
        limit: limit + 1,
        before: query.cursor ? parseCursor(query.cursor) : null,
      });
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      return {
        requests: page.map(present),
        next_cursor: rows.length > limit && last ? cursorOf(last) : null,
      };
    },

    /** The access export's file name and text, or why it cannot be read. */
    async export(principal: Principal, id: string) {
      await requirePrivacyAdmin(principal);
      const row = await requireRequest(principal, id);
      if (row.type !== 'access') throw notFound('Export (erasure requests have none)');
      if (row.status !== 'completed')
        throw new AppError(
          409,
          'export_not_ready',
          `The request is ${row.status}; the export is ready once it completes`,
        );
      if (!row.export_expires_at || row.export_expires_at <= clock.now())
        throw new AppError(
          410,
          'export_expired',
          'The export expired 7 days after the request completed; make a new request',
        );
      const site = await resolveSite(principal, row.site_id);
      // Refused before the file starts when events that left PostgreSQL have no ClickHouse to read.
      if (!clickhouse) await requireWholeInPostgres(db, null);
      return {
        fileName: `touchtrail-access-${row.id}.json`,
        body: accessExport(
          { db, clickhouse },
          { requestId: row.id, siteId: row.site_id },
          {
            requestId: row.id,
            site: { id: site.snippet_key, domain: site.domain },
            subjectKind: row.subject_kind,
            generatedAt: clock.now(),
          },
        ),
      };
    },
  };
}

function cursorOf(row: store.RequestRow): string {
  return Buffer.from(`${row.created_at.toISOString()}|${row.id}`).toString('base64url');
}

function parseCursor(cursor: string): { createdAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (Number.isNaN(createdAt.getTime()) || !id || !UUID_PATTERN.test(id))
    throw badInput('cursor', 'cursor must be a next_cursor this endpoint gave', 'query');
  return { createdAt, id };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
