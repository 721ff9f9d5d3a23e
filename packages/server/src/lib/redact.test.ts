import { describe, expect, it } from 'vitest';
import { REDACTED, redactProperties, redactText, redactUrl } from './redact.js';

describe('personal data removal', () => {
  it.each([
    ['jane.doe+shop@example.co.uk', REDACTED],
    ['contact: Jane <jane@example.com> today', `contact: Jane <${REDACTED}> today`],
    ['+44 20 7946 0958', REDACTED],
    ['call (555) 123-4567', `call ${REDACTED}`],
    ['555-123-4567', REDACTED],
    ['order 1234567890', 'order 1234567890'],
    ['plan_pro_2026', 'plan_pro_2026'],
    ['price 19.99', 'price 19.99'],
    ['2026-11-22', '2026-11-22'],
  ])('redactText(%j)', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });

  it('keeps keys and non-string values as sent', () => {
    expect(
      redactProperties({ 'email@x.com': 'ok', plan: 'pro', n: 5, flag: true, none: null, who: 'a@b.io' }),
    ).toEqual({
      'email@x.com': 'ok',
      plan: 'pro',
      n: 5,
      flag: true,
      none: null,
      who: REDACTED,
    });
  });

  it('redacts query values in URLs, encoded or not, and leaves clean URLs untouched', () => {
    expect(redactUrl('https://shop.example/thanks?email=jane%40example.com&plan=pro#top')).toBe(
      'https://shop.example/thanks?email=%5BREDACTED%5D&plan=pro#top',
    );
    expect(redactUrl('https://shop.example/?to=jane@example.com')).toBe(
      'https://shop.example/?to=%5BREDACTED%5D',
    );
    expect(redactUrl('https://shop.example/p?id=42&utm_source=chatgpt.com')).toBe(
      'https://shop.example/p?id=42&utm_source=chatgpt.com',
    );
    expect(redactUrl('https://shop.example/path')).toBe('https://shop.example/path');
    expect(redactUrl('https://shop.example/?bad=%E0%A4%A')).toBe('https://shop.example/?bad=%E0%A4%A');
  });
});
