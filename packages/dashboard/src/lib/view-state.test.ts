import { describe, expect, it } from 'vitest';
import { dateWindow, intervalOf, parseViewState, queryScope, serializeViewState } from './view-state';

describe('the view in the URL', () => {
  it('reads what it writes', () => {
    const search =
      '?range=custom&from=2026-03-01&to=2026-03-31&compare=previous_period&model=linear&channel=ai&page=%2Fpricing';
    const view = parseViewState(search);
    expect(view).toEqual({
      range: 'custom',
      from: '2026-03-01',
      to: '2026-03-31',
      compare: true,
      model: 'linear',
      filters: [
        { key: 'channel', value: 'ai' },
        { key: 'page', value: '/pricing' },
      ],
    });
    expect(parseViewState(serializeViewState(view))).toEqual(view);
  });

  it('falls back to 30 days for an unknown range or a custom range without good dates', () => {
    expect(parseViewState('?range=forever').range).toBe('30d');
    expect(parseViewState('?model=everything').model).toBeUndefined();
    expect(parseViewState('?range=custom&from=2026-04-01&to=2026-03-01').range).toBe('30d');
    expect(parseViewState('?range=custom&from=yesterday&to=today').range).toBe('30d');
    expect(serializeViewState(parseViewState(''))).toBe('');
  });

  it('ignores parameters that are not filters', () => {
    expect(parseViewState('?utm=1&secret=x').filters).toEqual([]);
  });

  it('turns the view into the stats query’s range, filters and UTC', () => {
    expect(queryScope(parseViewState('?range=7d&ai_source=chatgpt'))).toEqual({
      date_range: '7d',
      filters: [['is', 'visit:ai_source', ['chatgpt']]],
      timezone: 'UTC',
    });
    expect(queryScope(parseViewState('?range=custom&from=2026-01-01&to=2026-01-02')).date_range).toEqual([
      '2026-01-01',
      '2026-01-02',
    ]);
  });

  it('buckets by hour for a day, by month for a year, else by day', () => {
    expect(intervalOf(parseViewState('?range=day'))).toBe('time:hour');
    expect(intervalOf(parseViewState('?range=12mo'))).toBe('time:month');
    expect(intervalOf(parseViewState('?range=30d'))).toBe('time:day');
    expect(intervalOf(parseViewState('?range=custom&from=2025-01-01&to=2025-12-31'))).toBe('time:month');
  });

  it('turns a range into the inclusive UTC days of the reports that take from and to', () => {
    const now = new Date('2026-03-15T23:30:00Z');
    const window = (search: string) => dateWindow(parseViewState(search), now);
    expect(window('?range=day')).toEqual({ from: '2026-03-15', to: '2026-03-15' });
    expect(window('?range=7d')).toEqual({ from: '2026-03-09', to: '2026-03-15' });
    expect(window('')).toEqual({ from: '2026-02-14', to: '2026-03-15' });
    expect(window('?range=month')).toEqual({ from: '2026-03-01', to: '2026-03-15' });
    expect(window('?range=12mo')).toEqual({ from: '2025-04-01', to: '2026-03-15' });
    expect(window('?range=custom&from=2026-01-01&to=2026-01-31')).toEqual({
      from: '2026-01-01',
      to: '2026-01-31',
    });
  });
});
