/**
 * Who a person is. Visitor ids (one per browser) are tied to person keys (an identified user or
 * an email, hashed: identity/person-key.ts) by identity_links. The SQL of these rules is in
 * identity.sql.ts, as pieces every query composes; nothing else reads identity_links.
 *
 * - A person is the set of visitor ids whose earliest link is one person key; a visitor id never
 *   linked is a person on its own. This is who a row of the visitor reports is about.
 * - The visits that count toward a conversion are wider: those of its own visitor id, of every
 *   visitor id sharing any person key with it, and of every visitor id linked to its person key,
 *   started within the look-back up to the conversion. Attribution credits them, and the
 *   conversion listing shows the last of them.
 */
/** How far before a conversion a visit still counts toward it. */
export const LOOKBACK_DAYS = 30;

/** A person of the visitor reports, tagged so a person key and a lone visitor id never collide. */
export type PersonId = `p:${string}` | `v:${string}`;

export const personOfKey = (personKey: string): PersonId => `p:${personKey}`;
export const personOfVisitor = (visitorId: string): PersonId => `v:${visitorId}`;

/** The person key behind a `p:` id, or null for a lone visitor. */
export function personKeyOf(person: PersonId): string | null {
  return person.startsWith('p:') ? person.slice(2) : null;
}

/** The visitor id behind a `v:` id, or null for a signed-in person. */
export function loneVisitorOf(person: PersonId): string | null {
  return person.startsWith('v:') ? person.slice(2) : null;
}
