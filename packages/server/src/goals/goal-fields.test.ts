import { describe, expect, it } from 'vitest';
import { AppError } from '../http/errors.js';
import { checkGoalFields, displayNameProblem, isSingleEmoji, sortOrderProblem } from './goal-fields.js';
import { resolveReportWindow } from './goal-reports.js';

describe('isSingleEmoji', () => {
  const ACCEPTED: [string, string][] = [
    ['a pictograph', '😀'],
    ['thumbs up', '👍'],
    ['a recent pictograph (Unicode 14)', '🫠'],
    ['a skin-tone variant', '👍🏽'],
    ['a dark skin tone on a person', '🧑🏿'],
    ['a country flag', '🇫🇷'],
    ['another flag', '🇯🇵'],
    ['the UN flag', '🇺🇳'],
    ['a subdivision flag (tag sequence)', '🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
    ['a keycap digit', '1️⃣'],
    ['a keycap hash', '#️⃣'],
    ['a keycap asterisk', '*️⃣'],
    ['a ZWJ family', '👨‍👩‍👧‍👦'],
    ['a ZWJ couple with heart', '👩‍❤️‍👨'],
    ['a ZWJ profession with skin tone', '🧑🏿‍💻'],
    ['a ZWJ couple with two skin tones', '🧑🏻‍🤝‍🧑🏼'],
    ['a rainbow flag (ZWJ)', '🏳️‍🌈'],
    ['a pirate flag (ZWJ)', '🏴‍☠️'],
    ['a black cat (ZWJ)', '🐈‍⬛'],
    ['a gendered ZWJ sequence', '🧔‍♀️'],
    ['a heart with emoji presentation selector', '❤️'],
    ['copyright with presentation selector', '©️'],
  ];
  const REJECTED: [string, string][] = [
    ['empty text', ''],
    ['a letter', 'a'],
    ['a word', 'goal'],
    ['an emoticon', ':)'],
    ['two emoji', '😀😀'],
    ['two flags', '🇫🇷🇯🇵'],
    ['an emoji and text', '🚀 launch'],
    ['an emoji with a trailing space', '😀 '],
    ['an emoji with a leading newline', '\n😀'],
    ['a bare variation selector', '\uFE0F'],
    ['a bare zero-width joiner', '\u200D'],
    ['an emoji with a dangling joiner', '😀\u200D'],
    ['a lone regional indicator', '🇫'],
    ['a flag and a lone regional indicator', '🇫🇷🇩'],
    ['an unassigned region pair', '🇿🇿'],
    ['a bare digit', '1'],
    ['a bare hash', '#'],
    ['a keycap without its selector', '1⃣'],
    ['a text-presentation heart without selector', '❤'],
    ['an emoji with a stray selector', '😀\uFE0F'],
    ['a lone surrogate', '\uD83D'],
    ['a CJK character', '中'],
    ['a thousand emoji', '😀'.repeat(1000)],
  ];

  it('has at least 30 cases', () => {
    expect(ACCEPTED.length + REJECTED.length).toBeGreaterThanOrEqual(30);
  });
  it.each(ACCEPTED)('accepts %s', (_label, value) => {
    expect(isSingleEmoji(value)).toBe(true);
  });
  it.each(REJECTED)('rejects %s', (_label, value) => {
    expect(isSingleEmoji(value)).toBe(false);
  });
});

describe('goal field rules', () => {
  it('counts display names in code points, 1 to 120, without control characters', () => {
    expect(displayNameProblem('🚀'.repeat(120))).toBeNull();
    expect(displayNameProblem('x'.repeat(121))).toMatch(/1 to 120/);
    expect(displayNameProblem('')).toMatch(/1 to 120/);
    expect(displayNameProblem('a\u0007b')).toMatch(/control/);
  });

  it('takes integer sort orders from 0 to 10000', () => {
    for (const ok of [0, 1, 10_000]) expect(sortOrderProblem(ok)).toBeNull();
    for (const bad of [-1, 10_001, 1.5, Number.NaN]) expect(sortOrderProblem(bad)).not.toBeNull();
  });

  it('normalises and names the offending field for callers other than HTTP', () => {
    expect(checkGoalFields({ display_name: '  Hi  ', emoji: null })).toEqual({
      display_name: 'Hi',
      emoji: null,
    });
    expect(checkGoalFields({})).toEqual({});
    for (const [input, field] of [
      [{ display_name: '   ' }, 'display_name'],
      [{ emoji: 'ab' }, 'emoji'],
      [{ sort_order: 10_001 }, 'sort_order'],
    ] as const) {
      const error = (() => {
        try {
          checkGoalFields(input);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).details).toMatchObject({ field, source: 'body' });
    }
  });
});

describe('resolveReportWindow', () => {
  const now = new Date('2026-03-01T23:59:59Z');

  it('defaults to today (UTC) and the six days before', () => {
    expect(resolveReportWindow({}, now)).toMatchObject({ from: '2026-02-23', to: '2026-03-01' });
    expect(resolveReportWindow({ to: '2024-03-02' }, now)).toMatchObject({ from: '2024-02-25' });
    const window = resolveReportWindow({ from: '2026-02-27' }, now);
    expect(window).toMatchObject({ from: '2026-02-27', to: '2026-03-01' });
    expect(window.start.toISOString()).toBe('2026-02-27T00:00:00.000Z');
    expect(window.end.toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });

  it('allows 365 days counted inclusively, not 366', () => {
    expect(resolveReportWindow({ from: '2025-01-01', to: '2025-12-31' }, now).from).toBe('2025-01-01');
    expect(() => resolveReportWindow({ from: '2024-01-01', to: '2024-12-31' }, now)).toThrow(/366 days/);
  });

  it('refuses malformed days and from after to as query errors', () => {
    for (const input of [
      { from: '2026-02-30' },
      { to: '2026-1-01' },
      { from: '20260101' },
      { to: '0000-01-01' },
      { from: '2026-03-02' },
    ]) {
      expect(() => resolveReportWindow(input, now)).toThrow(AppError);
    }
  });
});
