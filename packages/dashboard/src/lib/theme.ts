/** Light or dark: the system's preference until the person picks one, remembered in this browser. */
export type Theme = 'light' | 'dark';
const KEY = 'touchtrail-theme';

/** Storage may be refused (a shared view embedded in another site's page): then nothing is remembered. */
function stored(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function currentTheme(): Theme {
  const saved = stored()?.getItem(KEY);
  if (saved === 'light' || saved === 'dark') return saved;
  return window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function applyTheme(theme: Theme, remember = false) {
  document.documentElement.dataset.theme = theme;
  if (remember) stored()?.setItem(KEY, theme);
}
