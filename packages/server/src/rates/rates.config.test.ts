/** `RATES_URL` and `RATES_REFRESH_HOURS` (config.ts): the ECB by default; empty or `off` turns refreshing off. */
import { describe, expect, it } from 'vitest';
import { ConfigError, ECB_DAILY_RATES_URL, loadConfig } from '../config.js';

describe('rates configuration', () => {
  it('refreshes from the ECB daily file every 6 hours by default', () => {
    const config = loadConfig({});
    expect(ECB_DAILY_RATES_URL).toBe('https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml');
    expect(config.ratesUrl).toBe(ECB_DAILY_RATES_URL);
    expect(config.ratesRefreshHours).toBe(6);
  });

  it('takes another URL and interval', () => {
    const config = loadConfig({
      RATES_URL: 'http://mirror.internal:8000/eurofxref-daily.xml',
      RATES_REFRESH_HOURS: '24',
    });
    expect(config.ratesUrl).toBe('http://mirror.internal:8000/eurofxref-daily.xml');
    expect(config.ratesRefreshHours).toBe(24);
  });

  it('turns refreshing off when RATES_URL is empty or off', () => {
    expect(loadConfig({ RATES_URL: '' }).ratesUrl).toBeUndefined();
    expect(loadConfig({ RATES_URL: 'off' }).ratesUrl).toBeUndefined();
    expect(loadConfig({ RATES_URL: 'OFF' }).ratesUrl).toBeUndefined();
  });

  it('names the variable when a value is wrong', () => {
    expect(() => loadConfig({ RATES_URL: 'ftp://ecb.example/rates.xml' })).toThrow(ConfigError);
    expect(() => loadConfig({ RATES_URL: 'ecb.europa.eu' })).toThrow(/^RATES_URL: must be an http/);
    expect(() => loadConfig({ RATES_URL: 'https://user:hunter2@rates.example/daily.xml' })).toThrow(
      'RATES_URL: must not hold a user name or password (see the configuration table in README.md)',
    );
    expect(() => loadConfig({ RATES_REFRESH_HOURS: '0' })).toThrow(/^RATES_REFRESH_HOURS:/);
    expect(() => loadConfig({ RATES_REFRESH_HOURS: '1.5' })).toThrow(/^RATES_REFRESH_HOURS:/);
  });
});
