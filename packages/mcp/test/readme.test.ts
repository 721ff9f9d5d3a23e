/**
 * The README's way to a key is the dashboard's: the header's button and the section it opens,
 * as the dashboard's sources name them.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('the README', () => {
  it('names the dashboard menu that holds API keys as the dashboard does', () => {
    const readme = read('../README.md');
    const layout = read('../../dashboard/src/components/Layout.tsx');
    const account = read('../../dashboard/src/pages/account/AccountPage.tsx');
    expect(readme).toContain('(Account → API keys)');
    // The header's button to /account says "Account", and the page's first section is "API keys".
    expect(layout).toMatch(/<Link href="\/account"[^>]*>\s*Account\s*<\/Link>/);
    expect(account).toContain("{ path: '', label: 'API keys' }");
    expect(readme).not.toMatch(/Settings → API keys/);
  });
});
