/** The hostname rules on their own, without HTTP: normalisation, suggestions, cookie apex checks. */
import { describe, expect, it } from 'vitest';
import { confirmsDomain, cookieApexProblem, parseHostname, suggestCookieApex } from './domains.js';

describe('parseHostname', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['münchen.de', 'xn--mnchen-3ya.de'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
    ['10.1.2.3', '10.1.2.3'],
    ['[::1]', '[::1]'],
    ['[2001:DB8::1]', '[2001:db8::1]'],
    ['intranet', 'intranet'],
    [`${'a'.repeat(63)}.example`, `${'a'.repeat(63)}.example`],
  ])('normalises %s to %s', (raw, hostname) => {
    expect(parseHostname(raw)).toEqual({ hostname });
  });

  it.each([
    ['', 'must not be empty'],
    ['a b.com', 'spaces'],
    ['\texample.com', 'spaces'],
    ['ftp://example.com', 'scheme'],
    ['me@example.com', 'credentials'],
    ['example.com#top', 'path'],
    ['example.com\\x', 'path'],
    ['example.com:80', 'port'],
    ['[::1]:80', 'port'],
    ['0x7f.1', 'valid hostname'],
    ['exa*mple.com', 'valid hostname'],
    ['example.com.', 'dot'],
  ])('refuses %j (%s)', (raw, problem) => {
    const result = parseHostname(raw);
    expect(result).toEqual({ problem: expect.stringContaining(problem) });
  });
});

describe('suggestCookieApex', () => {
  it.each([
    ['www.example.co.uk', 'example.co.uk'],
    ['example.com', 'example.com'],
    ['a.b.c.example.com', 'example.com'],
    ['shop.github.io', 'shop.github.io'],
    ['localhost', null],
    ['127.0.0.1', null],
    ['[::1]', null],
    ['co.uk', null],
  ])('suggests %s → %s', (domain, apex) => {
    expect(suggestCookieApex(domain)).toBe(apex);
  });
});

describe('cookieApexProblem', () => {
  it.each([
    ['a.b.example.com', 'a.b.example.com'],
    ['a.b.example.com', 'b.example.com'],
    ['a.b.example.com', 'example.com'],
  ])('lets %s use %s', (domain, apex) => {
    expect(cookieApexProblem(domain, apex)).toBeNull();
  });

  it.each([
    ['a.example.com', 'com', 'public suffix'],
    ['shop.github.io', 'github.io', 'public suffix'],
    ['localhost', 'localhost', 'public suffix'],
    ['10.0.0.1', '10.0.0.1', 'public suffix'],
    ['a.example.com', 'b.example.com', 'parent'],
    ['example.com', 'a.example.com', 'parent'],
    ['myexample.com', 'example.com', 'parent'],
  ])('refuses %s with %s', (domain, apex, problem) => {
    expect(cookieApexProblem(domain, apex)).toContain(problem);
  });
});

describe('confirmsDomain', () => {
  it('matches case-insensitively and through the Unicode form', () => {
    expect(confirmsDomain('xn--mnchen-3ya.de', 'MÜNCHEN.de')).toBe(true);
    expect(confirmsDomain('example.com', ' Example.com ')).toBe(true);
    expect(confirmsDomain('example.com', 'example.org')).toBe(false);
    expect(confirmsDomain('example.com', 'https://example.com')).toBe(false);
  });
});
