import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS } from '../lib/clock.js';
import { microToDecimal, splitAmount } from '../revenue/split-amount.js';
import {
  attributeUnderAllModels,
  type Credits,
  firstTouch,
  lastTouch,
  linear,
  sourceKinds,
  type Touchpoint,
  timeDecay,
} from './models.js';

const CONVERSION = new Date('2026-03-01T12:00:00Z');
const SOURCES = ['chatgpt', 'perplexity', 'search', 'direct', 'social', 'Claude', '🦊'];

const touchpointArb = fc.record({
  visitId: fc.uuid(),
  source: fc.constantFrom(...SOURCES),
  sourceKind: fc.constantFrom('ai', 'non_ai', 'unknown'),
  // Within the 30-day look-back, down to the same millisecond as the conversion.
  startedAt: fc.integer({ min: 0, max: 30 * DAY_MS }).map((age) => new Date(CONVERSION.getTime() - age)),
});
const touchpointsArb = fc.uniqueArray(touchpointArb, {
  minLength: 1,
  maxLength: 40,
  selector: (tp) => tp.visitId,
});

const sum = (credits: Credits) => [...credits.values()].reduce((a, b) => a + b, 0);
const all = (tps: Touchpoint[]) => Object.values(attributeUnderAllModels(tps, CONVERSION));
const sorted = (credits: Credits) => [...credits].sort(([a], [b]) => (a < b ? -1 : 1));

const visit = (id: string, source: string, daysBefore: number): Touchpoint => ({
  visitId: id,
  source,
  sourceKind: source === 'direct' ? 'unknown' : 'ai',
  startedAt: new Date(CONVERSION.getTime() - daysBefore * DAY_MS),
});

describe('attribution models (properties)', () => {
  it('give shares that sum to 1 and are each in (0, 1]', () => {
    fc.assert(
      fc.property(touchpointsArb, (tps) => {
        for (const credits of all(tps)) {
          expect(Math.abs(sum(credits) - 1)).toBeLessThan(1e-9);
          for (const share of credits.values()) expect(share > 0 && share <= 1 + 1e-12).toBe(true);
        }
      }),
    );
  });

  it('do not depend on the order of the touchpoints', () => {
    fc.assert(
      fc.property(touchpointsArb, fc.func(fc.integer()), (tps, key) => {
        const shuffled = [...tps].sort(
          (a, b) => key(a.visitId) - key(b.visitId) || (a.visitId < b.visitId ? -1 : 1),
        );
        const before = all(tps);
        const after = all(shuffled);
        before.forEach((credits, i) => {
          const other = after[i] as Credits;
          expect([...other.keys()].sort()).toEqual([...credits.keys()].sort());
          for (const [source, share] of credits) expect(other.get(source)).toBeCloseTo(share, 12);
        });
      }),
    );
  });

  it('give a single visit’s source all the credit under every model', () => {
    fc.assert(
      fc.property(touchpointArb, (tp) => {
        for (const credits of all([tp])) expect(sorted(credits)).toEqual([[tp.source, 1]]);
      }),
    );
  });

  it('credit the earliest visit first-touch and the latest last-touch', () => {
    fc.assert(
      fc.property(touchpointsArb, (tps) => {
        const times = tps.map((tp) => tp.startedAt.getTime());
        const earliest = new Set(
          tps.filter((tp) => tp.startedAt.getTime() === Math.min(...times)).map((tp) => tp.source),
        );
        const latest = new Set(
          tps.filter((tp) => tp.startedAt.getTime() === Math.max(...times)).map((tp) => tp.source),
        );
        const [first] = [...firstTouch(tps).keys()];
        const [last] = [...lastTouch(tps).keys()];
        expect(earliest.has(first as string)).toBe(true);
        expect(latest.has(last as string)).toBe(true);
      }),
    );
  });

  it('weigh a newer visit more than an older one under time decay, equally under linear', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 29 * DAY_MS }),
        fc.integer({ min: 1, max: DAY_MS }),
        (newerAge, gap) => {
          const tps = [
            {
              visitId: 'a',
              source: 'older',
              sourceKind: 'ai',
              startedAt: new Date(CONVERSION.getTime() - newerAge - gap),
            },
            {
              visitId: 'b',
              source: 'newer',
              sourceKind: 'ai',
              startedAt: new Date(CONVERSION.getTime() - newerAge),
            },
          ];
          const decay = timeDecay(tps, CONVERSION);
          expect(decay.get('newer') as number).toBeGreaterThan(decay.get('older') as number);
          expect(linear(tps).get('newer')).toBe(0.5);
        },
      ),
    );
  });

  it('split amounts exactly: parts add up to the whole for any amount up to 10^15', () => {
    fc.assert(
      fc.property(touchpointsArb, fc.integer({ min: 0, max: 10 ** 15 }), (tps, amount) => {
        for (const credits of all(tps)) {
          const parts = splitAmount(amount, credits);
          expect([...parts.values()].reduce((a, b) => a + b, 0n)).toBe(BigInt(amount) * 1_000_000n);
          expect([...parts.keys()].sort()).toEqual([...credits.keys()].sort());
        }
      }),
    );
  });
});

describe('attribution models (worked examples)', () => {
  // chatgpt 10 days before, search 3 days before, chatgpt again on the day of the conversion.
  const tps = [visit('v2', 'search', 3), visit('v3', 'chatgpt', 0), visit('v1', 'chatgpt', 10)];

  it('first and last touch', () => {
    expect(sorted(firstTouch(tps))).toEqual([['chatgpt', 1]]);
    expect(sorted(lastTouch(tps))).toEqual([['chatgpt', 1]]);
    expect(sorted(firstTouch([visit('v2', 'search', 3), visit('v1', 'direct', 10)]))).toEqual([
      ['direct', 1],
    ]);
  });

  it('linear adds up the visits of one source', () => {
    const credits = linear(tps);
    expect(credits.get('chatgpt')).toBeCloseTo(2 / 3, 12);
    expect(credits.get('search')).toBeCloseTo(1 / 3, 12);
  });

  it('time decay halves a visit’s weight every seven days', () => {
    const weights = { v1: 2 ** (-10 / 7), v2: 2 ** (-3 / 7), v3: 1 };
    const total = weights.v1 + weights.v2 + weights.v3;
    const credits = timeDecay(tps, CONVERSION);
    expect(credits.get('chatgpt')).toBeCloseTo((weights.v1 + weights.v3) / total, 12);
    expect(credits.get('search')).toBeCloseTo(weights.v2 / total, 12);
    // Two visits a week apart: the newer one weighs twice as much.
    const pair = timeDecay([visit('a', 'search', 7), visit('b', 'chatgpt', 0)], CONVERSION);
    expect(pair.get('chatgpt')).toBeCloseTo(2 / 3, 12);
  });

  it('breaks a tie between visits at the same instant by visit id, and nothing gets credit without visits', () => {
    const at = new Date(CONVERSION.getTime() - HOUR_MS);
    const twins = [
      { visitId: 'b', source: 'search', sourceKind: 'non_ai', startedAt: at },
      { visitId: 'a', source: 'chatgpt', sourceKind: 'ai', startedAt: at },
    ];
    expect([...firstTouch(twins).keys()]).toEqual(['chatgpt']);
    expect([...lastTouch(twins).keys()]).toEqual(['search']);
    for (const credits of all([])) expect(credits.size).toBe(0);
  });

  it('stores the kind of the latest visit of a source', () => {
    const mixed = [visit('x', 'referral', 5), { ...visit('y', 'referral', 1), sourceKind: 'non_ai' }];
    expect(sourceKinds(mixed).get('referral')).toBe('non_ai');
  });

  it('splits 100 cents over three equal shares into exact millionths', () => {
    const parts = splitAmount(100, linear([visit('a', 'x', 1), visit('b', 'y', 2), visit('c', 'z', 3)]));
    expect([...parts.values()].map(microToDecimal)).toEqual(['33.333334', '33.333333', '33.333333']);
    expect(microToDecimal(-1_234_567n)).toBe('-1.234567');
  });
});
