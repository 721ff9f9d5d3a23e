/**
 * Who a visitor row is about. A person is the set of visitor ids linked to one person key
 * (identity_links); a visitor id never linked is a person on its own; a visitor id linked to
 * several keys belongs to its earliest link's key. The id is tagged so the two never collide.
 */
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
