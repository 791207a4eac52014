/**
 * The web app manifest (GET /manifest.webmanifest), the one source of its fields: the SPA's index.html links
 * to it, the dev server proxies it here. The name is the operator's (setting `info`, the same as
 * GET /api/lookup/info's `name`), so a rename shows in the installed app's next manifest check.
 */

/** The product's green (the icons, the top bar) and the page background of the app's light theme. */
export const THEME_COLOR = '#0b6e4f';
export const BACKGROUND_COLOR = '#f4f6f5';
/** The name when the operator has none (no `info` setting yet). */
export const DEFAULT_APP_NAME = 'Player Wallet';

/** The launcher label: the whole name when it fits (Chromium advises 12 characters), else its first word, else its first 12 characters. */
export function shortName(name: string): string {
  const chars = [...name.trim()];
  if (chars.length <= 12) return chars.join('');
  const first = [...name.trim().split(/\s+/)[0]];
  return (first.length <= 12 ? first : first.slice(0, 12)).join('');
}

export const MANIFEST_ICONS = [
  { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
  { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
  { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
] as const;

export function webManifest(name: string, market: 'th' | 'lao') {
  const appName = name.trim() || DEFAULT_APP_NAME;
  return {
    id: '/',
    name: appName,
    short_name: shortName(appName),
    description: 'Wallet, deposits, withdrawals, bonuses and statement for players (th, la, en).',
    lang: market === 'lao' ? 'lo' : 'th',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    orientation: 'portrait',
    background_color: BACKGROUND_COLOR,
    theme_color: THEME_COLOR,
    icons: MANIFEST_ICONS,
  };
}
