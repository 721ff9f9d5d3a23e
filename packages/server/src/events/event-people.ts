/**
 * The people behind events, as the visitor reports see them (identity/identity.ts): an event
 * with a visitor id belongs to that id's person, one with only a person key (a server event or
 * payment naming a user or an email) to that key. A person's `vh_` handle names their earliest
 * visit, so GET /v1/visitors/{handle} answers for it; for anyone with at most 50 visitor ids it
 * is the very handle the visitor reports list.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.js';
import type { HandleCodec } from '../people/visitor-handles.js';
import {
  findFirstVisitsOfKeys,
  findFirstVisitsOfVisitors,
  findPersonKeys,
  findSenderOfVisit,
} from './events.store.js';

/** A signed-in person (all visitor ids linked to the key, and events naming only the key) or a lone visitor id. */
export type Person = { personKey: string } | { visitorId: string };

interface Sender {
  visitor_id: string | null;
  person_key: string | null;
}

export const senderKey = (e: Sender) => `${e.visitor_id ?? ''}\u0000${e.person_key ?? ''}`;

/** The person a handle names, or null when it names no visit of this site (then nothing matches). */
export async function personOfHandle(
  db: Kysely<DB>,
  codec: HandleCodec,
  siteId: string,
  handle: string,
): Promise<Person | null> {
  const subject = codec.decode(handle);
  if (!subject || subject.siteId !== siteId) return null;
  const sender = await findSenderOfVisit(db, siteId, subject.visitId);
  if (!sender) return null;
  return sender.person_key ? { personKey: sender.person_key } : { visitorId: sender.visitor_id };
}

/** The handle of each event's person (null when they have no visit), keyed by `senderKey`. */
export async function handlesOf(
  db: Kysely<DB>,
  codec: HandleCodec,
  siteId: string,
  events: Sender[],
): Promise<Map<string, string | null>> {
  const keyOfVisitor = await findPersonKeys(db, siteId, distinct(events.map((e) => e.visitor_id)));
  const personOf = (e: Sender): Person | null => {
    if (e.visitor_id !== null) {
      const key = keyOfVisitor.get(e.visitor_id);
      return key ? { personKey: key } : { visitorId: e.visitor_id };
    }
    return e.person_key === null ? null : { personKey: e.person_key };
  };
  const people = events.map(personOf);
  const keys = distinct(people.map((p) => (p && 'personKey' in p ? p.personKey : null)));
  const lone = distinct(people.map((p) => (p && 'visitorId' in p ? p.visitorId : null)));
  const firstOfKey = await findFirstVisitsOfKeys(db, siteId, keys);
  const firstOfVisitor = await findFirstVisitsOfVisitors(db, siteId, lone);
  const handles = new Map<string, string | null>();
  events.forEach((event, i) => {
    const person = people[i];
    const visitId = !person
      ? undefined
      : 'personKey' in person
        ? firstOfKey.get(person.personKey)
        : firstOfVisitor.get(person.visitorId);
    handles.set(senderKey(event), visitId ? codec.encode({ siteId, visitId }) : null);
  });
  return handles;
}

const distinct = (values: (string | null)[]) => [...new Set(values.filter((v): v is string => v !== null))];
