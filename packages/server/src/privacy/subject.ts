/**
 * A data subject as a request names them, and the rows that name them back. The subject's value
 * is used once, to find who it is, and kept only as a keyed hash under a purpose of its own
 * (`auditHash`): the audit trail can tell two requests about the same subject apart from
 * others, but the hash matches no stored id or person key, so it is no trace of the person.
 */
import type { Kysely } from 'kysely';
import type { SubjectKind } from '../db/privacy-types.js';
import type { DB } from '../db/types.js';
import { emailPersonKey, personKeyFor, userPersonKey } from '../identity/person-key.js';
import { hmacHex } from '../lib/secrets.js';
import type { HandleCodec } from '../people/visitor-handles.js';
import * as store from './privacy.store.js';

export const SUBJECT_KINDS = ['visitor_id', 'user_id', 'email', 'handle', 'customer_id'] as const;

export interface Subject {
  kind: SubjectKind;
  value: string;
}

/** The same subject always gives the same hash; emails are compared case-blind, as ingest does. */
export function auditHash(secretKey: string, subject: Subject): string {
  const value = subject.kind === 'email' ? subject.value.trim().toLowerCase() : subject.value;
  return hmacHex(secretKey, `privacy-subject:${subject.kind}:${value}`);
}

/** Where resolution starts: the visitor ids, person keys and customer ids the subject names. */
export interface Seed {
  visitors: string[];
  personKeys: string[];
  customers: string[];
}

/**
 * The seed of a subject on one site. A handle names a visit, whose visitor leads to the person;
 * a handle of another site, or of a visit no longer stored, names nobody. A customer id leads to
 * the visitors and person keys its payments carry.
 */
export async function seedOf(
  db: Kysely<DB>,
  deps: { secretKey: string; handles: HandleCodec },
  siteId: string,
  subject: Subject,
): Promise<Seed> {
  const seed: Seed = { visitors: [], personKeys: [], customers: [] };
  switch (subject.kind) {
    case 'visitor_id':
      seed.visitors.push(subject.value);
      break;
    case 'email':
      seed.personKeys.push(emailPersonKey(deps.secretKey, subject.value));
      break;
    case 'user_id': {
      // identify() hashes an email-shaped user id as an email; server events always as a user id.
      const keys = new Set([
        userPersonKey(deps.secretKey, subject.value),
        personKeyFor(deps.secretKey, subject.value),
      ]);
      seed.personKeys.push(...keys);
      break;
    }
    case 'handle': {
      const decoded = deps.handles.decode(subject.value);
      if (!decoded || decoded.siteId !== siteId) break;
      const visitorId = await store.findVisitorOfVisit(db, siteId, decoded.visitId);
      if (visitorId) seed.visitors.push(visitorId);
      break;
    }
    case 'customer_id': {
      seed.customers.push(subject.value);
      const payments = await store.findSendersOfCustomer(db, siteId, subject.value);
      for (const payment of payments) {
        if (payment.visitor_id) seed.visitors.push(payment.visitor_id);
        if (payment.person_key) seed.personKeys.push(payment.person_key);
      }
      break;
    }
  }
  return seed;
}
