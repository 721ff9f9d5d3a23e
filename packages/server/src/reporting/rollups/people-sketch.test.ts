import { describe, expect, it } from 'vitest';
import { EXACT_LIST_MAX, EXACT_UNION_MAX, PeopleSketch, personHash } from './people-sketch.js';

const people = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => personHash(`v:person-${from + i}`));

const sketchOf = (hashes: number[]) => {
  const sketch = new PeopleSketch();
  for (const hash of hashes) sketch.add(hash);
  return sketch;
};

describe('people sketch', () => {
  it('counts a small group exactly, through its stored list and a merge of overlapping lists', () => {
    const a = sketchOf(people(0, 300));
    const b = sketchOf(people(200, 500));
    expect(a.encode()).toHaveLength(1 + 8 * 300);
    const merged = new PeopleSketch();
    merged.merge(a.encode());
    merged.merge(b.encode());
    expect(merged.count()).toBe(500);
    expect(merged.approximate).toBe(false);
  });

  it('stores a group over the list limit as 4,096 registers, within 1.6% on average and 5% at worst', () => {
    const sizes = [EXACT_LIST_MAX + 1, 1_000, 2_000, 5_000, 10_000, 20_000, 40_000, 60_000, 120_000, 250_000];
    const errors = sizes.map((size) => {
      const stored = sketchOf(people(0, size)).encode();
      expect(stored).toHaveLength(1 + 4096);
      const read = new PeopleSketch();
      read.merge(stored);
      expect(read.approximate).toBe(true);
      return Math.abs(read.count() - size) / size;
    });
    // The standard error of 4,096 registers is 1.04 / 64 = 1.6%; three of them is 4.9%.
    expect(errors.reduce((a, b) => a + b) / errors.length).toBeLessThan(0.016);
    expect(Math.max(...errors)).toBeLessThan(0.05);
  });

  it('merges days of registers and lists without counting a person twice', () => {
    const days = Array.from({ length: 30 }, (_, day) => people(day * 1_000, day * 1_000 + 3_000));
    const merged = new PeopleSketch();
    for (const day of days) merged.merge(sketchOf(day).encode());
    merged.merge(sketchOf(people(0, 100)).encode());
    const distinct = 29 * 1_000 + 3_000;
    expect(merged.approximate).toBe(true);
    expect(Math.abs(merged.count() - distinct) / distinct).toBeLessThan(0.05);
  });

  it('switches a merge of lists to registers past the exact union limit', () => {
    const merged = new PeopleSketch();
    let distinct = 0;
    for (; distinct <= EXACT_UNION_MAX; distinct += EXACT_LIST_MAX) {
      merged.merge(sketchOf(people(distinct, distinct + EXACT_LIST_MAX)).encode());
    }
    expect(merged.approximate).toBe(true);
    expect(Math.abs(merged.count() - distinct) / distinct).toBeLessThan(0.05);
  });

  it('stays exact through many repeats of people under the union limit, in any order', () => {
    // Ten passes over the same people: far more hashes than a list holds before dropping repeats.
    const everyone = people(0, EXACT_UNION_MAX);
    const merged = new PeopleSketch();
    for (let pass = 0; pass < 10; pass++) {
      for (const hash of pass % 2 === 0 ? everyone : [...everyone].reverse()) merged.add(hash);
    }
    expect(merged.approximate).toBe(false);
    expect(merged.count()).toBe(EXACT_UNION_MAX);
    merged.add(personHash('v:one more'));
    expect(merged.approximate).toBe(true);
    expect(Math.abs(merged.count() - EXACT_UNION_MAX) / EXACT_UNION_MAX).toBeLessThan(0.05);
  });

  it("hashes a person as the stored rollups did: MD5's first 64 bits less bits 22–32", () => {
    // Rollups built earlier hold these hashes; a change here would count their people twice.
    expect(personHash('v:0b6f2c1e-3a4d-4f5e-8a9b-1c2d3e4f5a6b')).toBe(2833619051123605);
    expect(personHash('p:jane@example.com')).toBe(230620948772798);
  });

  it('counts nobody as 0', () => {
    expect(new PeopleSketch().count()).toBe(0);
    const empty = new PeopleSketch();
    empty.merge(new PeopleSketch().encode());
    expect(empty.count()).toBe(0);
  });
});
