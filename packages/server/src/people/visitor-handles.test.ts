/** The handle codec and the generated labels, without a database. */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHandleCodec } from './visitor-handles.js';
import { createLabeler } from './visitor-labels.js';

const SECRET = 'handle test secret, long enough for the config';

describe('visitor handles', () => {
  const codec = createHandleCodec(SECRET);
  const subject = { siteId: randomUUID(), visitId: randomUUID() };

  it('round-trips, is stable for one subject and fits a 100-character path parameter', () => {
    const handle = codec.encode(subject);
    expect(handle).toMatch(/^vh_[A-Za-z0-9_-]+$/);
    expect(handle.length).toBeLessThanOrEqual(100);
    expect(codec.decode(handle)).toEqual(subject);
    expect(codec.encode(subject)).toBe(handle);
    expect(codec.encode({ ...subject, visitId: randomUUID() })).not.toBe(handle);
  });

  it('refuses every single-bit change, truncation and another secret', () => {
    const sealed = Buffer.from(codec.encode(subject).slice(3), 'base64url');
    for (let byte = 0; byte < sealed.length; byte++) {
      for (let bit = 0; bit < 8; bit++) {
        const altered = Buffer.from(sealed);
        altered[byte] = (altered[byte] as number) ^ (1 << bit);
        expect(codec.decode(`vh_${altered.toString('base64url')}`), `byte ${byte} bit ${bit}`).toBeNull();
      }
    }
    expect(codec.decode(`vh_${sealed.subarray(0, -1).toString('base64url')}`)).toBeNull();
    expect(createHandleCodec(`${SECRET}!`).decode(codec.encode(subject))).toBeNull();
    expect(codec.decode('vh_')).toBeNull();
  });
});

describe('visitor labels', () => {
  it('gives a stable two-word name, its initials and a short id, seeded per site and person', () => {
    const labelFor = createLabeler(SECRET);
    const site = randomUUID();
    const label = labelFor(site, 'v:abc');
    expect(label.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(label.initials).toBe(
      label.name
        .split(' ')
        .map((word) => word[0])
        .join(''),
    );
    expect(label.short_id).toMatch(/^[0-9a-hjkmnp-tv-z]{6}$/);
    expect(labelFor(site, 'v:abc')).toEqual(label);
    const others = new Set(Array.from({ length: 200 }, (_, i) => labelFor(site, `v:${i}`).short_id));
    expect(others.size).toBe(200);
  });
});
