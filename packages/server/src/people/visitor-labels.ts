/**
 * Friendly labels for people who never told us their name: "Amber Otter", initials "AO" and a
 * short id to tell two Amber Otters apart. Seeded by an HMAC of (site, person) under a key
 * derived from the server secret, so a label is stable but reveals nothing about the person.
 */
import { createHmac, hkdfSync } from 'node:crypto';
import type { PersonId } from '../identity/identity.js';

// 64 words each, so one random byte picks a word without bias (256 is a multiple of 64).
// biome-ignore format: a word table reads best as a grid
const ADJECTIVES = [
  'Amber', 'Bold', 'Brave', 'Bright', 'Brisk', 'Calm', 'Clever', 'Cosmic',
  'Crimson', 'Curious', 'Dapper', 'Daring', 'Dusky', 'Eager', 'Electric', 'Emerald',
  'Fancy', 'Fearless', 'Fuzzy', 'Gentle', 'Gleaming', 'Golden', 'Grand', 'Happy',
  'Hidden', 'Humble', 'Icy', 'Indigo', 'Jolly', 'Keen', 'Kind', 'Lively',
  'Lucky', 'Lunar', 'Mellow', 'Merry', 'Misty', 'Mossy', 'Nimble', 'Noble',
  'Olive', 'Patient', 'Plucky', 'Polar', 'Quick', 'Quiet', 'Rapid', 'Rosy',
  'Rusty', 'Sandy', 'Silver', 'Sleek', 'Snowy', 'Solar', 'Spry', 'Stellar',
  'Sunny', 'Swift', 'Teal', 'Tidy', 'Velvet', 'Vivid', 'Witty', 'Zesty',
] as const;

// biome-ignore format: a word table reads best as a grid
const ANIMALS = [
  'Albatross', 'Alpaca', 'Badger', 'Beaver', 'Bison', 'Bobcat', 'Camel', 'Caribou',
  'Cheetah', 'Condor', 'Coyote', 'Crane', 'Dingo', 'Dolphin', 'Eagle', 'Falcon',
  'Ferret', 'Finch', 'Fox', 'Gazelle', 'Gecko', 'Gibbon', 'Heron', 'Hedgehog',
  'Ibex', 'Ibis', 'Jackal', 'Jaguar', 'Koala', 'Lemur', 'Leopard', 'Llama',
  'Lynx', 'Magpie', 'Marmot', 'Meerkat', 'Moose', 'Narwhal', 'Newt', 'Ocelot',
  'Orca', 'Osprey', 'Otter', 'Owl', 'Panda', 'Panther', 'Pelican', 'Penguin',
  'Puffin', 'Quail', 'Quokka', 'Raccoon', 'Raven', 'Salmon', 'Seal', 'Sparrow',
  'Stoat', 'Swan', 'Tapir', 'Tiger', 'Toucan', 'Walrus', 'Wombat', 'Yak',
] as const;

/** Crockford's base32 alphabet, lower-cased: no i, l, o or u to misread. */
const SHORT_ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const SHORT_ID_CHARS = 6;

export interface VisitorLabel {
  name: string;
  initials: string;
  short_id: string;
}

export function createLabeler(secretKey: string) {
  const seedKey = Buffer.from(hkdfSync('sha256', secretKey, 'touchtrail', 'visitor-label/v1', 32));

  return function labelFor(siteId: string, person: PersonId): VisitorLabel {
    const seed = createHmac('sha256', seedKey).update(`${siteId}|${person}`).digest();
    const adjective = ADJECTIVES[(seed[0] as number) % ADJECTIVES.length] as string;
    const animal = ANIMALS[(seed[1] as number) % ANIMALS.length] as string;
    let shortId = '';
    for (let i = 0; i < SHORT_ID_CHARS; i++) {
      shortId += SHORT_ID_ALPHABET[(seed[2 + i] as number) % SHORT_ID_ALPHABET.length];
    }
    return { name: `${adjective} ${animal}`, initials: `${adjective[0]}${animal[0]}`, short_id: shortId };
  };
}
