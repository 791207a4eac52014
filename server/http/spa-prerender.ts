import fs from 'node:fs';
import { HYDRATE_LOCALE, HYDRATE_PATH, type BootData, type ScreenPrerender } from '../../shared/prerender';

/**
 * The prerendered screens (docs/client.md "First screen"): the web build renders the login screen and the player's
 * home (while its wallet loads) for every language, demo mode and chat switch into dist/prerender/login.json and
 * home.json (src/prerender/), and GET /login and GET /user/home get the matching one inside their page's root, so
 * the screen paints from the HTML alone. Once its scripts have run, the app draws the login over its stand-in and
 * hydrates the home (keeps its elements: `hydratePath`, marked on the root for the app to check); until then the
 * root is `inert`: nothing in it can be focused, clicked or typed into (a form sent before the app is there would
 * put the password in the address).
 */

/** dist/prerender/login.json or home.json, read once per build (its modification time); none when the build has none. */
export function prerenderCache(file: string): () => ScreenPrerender | undefined {
  let cached: { mtimeMs: number; value: ScreenPrerender | undefined } | undefined;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(file).mtimeMs;
    } catch {
      return undefined;
    }
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, value: parse(fs.readFileSync(file, 'utf8')) };
    return cached.value;
  };
}

function parse(text: string): ScreenPrerender | undefined {
  try {
    const value = JSON.parse(text) as ScreenPrerender;
    return typeof value.slot === 'string' && Array.isArray(value.variants) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The language a request's cookie names, if it is one of the prerendered ones. */
export function cookieLanguage(cookieHeader: string | undefined): string | undefined {
  const match = /(?:^|;\s*)lang=([a-z]{2})(?:;|$)/.exec(cookieHeader ?? '');
  return match?.[1];
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The screen's page (dist/prerender/login.html or home.html: index.html whose scripts start after the first paint,
 * see src/app/firstPaint.ts) with the screen in its root, for `boot` and the language asked for (else the build's
 * first, its market's default), or `page` unchanged when the screen would not be the one the app shows: the site
 * info or the chat switch unknown, the operator without a name (the app shows its own), or the site terminated (the
 * app goes to /terminated). `needsSession`: a screen for logged-in players only (the home), which the page's loader
 * shows only when the browser holds a session (`data-needs-session`).
 */
export function withPrerenderedScreen(
  page: string,
  screenPage: () => string,
  prerender: ScreenPrerender | undefined,
  boot: BootData,
  language: string | undefined,
  { needsSession = false }: { needsSession?: boolean } = {},
): string {
  const { info, chat, active } = boot;
  if (!prerender || !info || !info.name || !chat || active?.terminated !== null) return page;
  const matching = prerender.variants.filter((v) => v.demo === info.demo && v.chat === chat.enableChatWidget);
  const variant = matching.find((v) => v.locale === language) ?? matching[0];
  if (!variant) return page;
  const brand = (info.logo ? `<img class="top-bar__logo" src="${escapeHtml(info.logo)}" alt="">` : '') + escapeHtml(info.name);
  const html = variant.html.split(prerender.slot).join(brand);
  const root = '<div id="root"></div>';
  let shell: string;
  try {
    shell = screenPage();
  } catch {
    return page; // a build without the screen's page
  }
  if (!shell.includes(root)) return page;
  let attributes = ' inert="" hidden=""';
  if (needsSession) attributes += ' data-needs-session=""';
  // A screen the app hydrates (the home) names its path and language: the app hydrates it only when its first
  // route and language are those (src/app/start.tsx), and draws its own screen otherwise.
  if (prerender.hydratePath) attributes += ` ${HYDRATE_PATH}="${escapeHtml(prerender.hydratePath)}" ${HYDRATE_LOCALE}="${variant.locale}"`;
  // Functions, not replacement strings: a `$` in the operator's name is no pattern.
  return shell.replace(/<html lang="[^"]*"/, () => `<html lang="${variant.lang}"`).replace(root, () => `<div id="root"${attributes}>${html}</div>`);
}
