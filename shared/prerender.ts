/**
 * The prerendered screens, login and the player's home (src/prerender/ renders them at build time;
 * server/http/spa.ts puts them in their pages; docs/client.md "First screen"). Shared by the three, so the
 * file's shape is written once.
 */
export interface PrerenderVariant {
  locale: 'th' | 'la' | 'en';
  /** `<html lang>` for it (lo for la). */
  lang: string;
  demo: boolean;
  chat: boolean;
  html: string;
}

/** A prerendered screen's variants (login.json, home.json). */
export interface ScreenPrerender {
  /** Stands in the HTML where the server puts the operator's logo and name. */
  slot: string;
  variants: PrerenderVariant[];
  /**
   * Set when the variants are exactly what the app's first render at this path draws (the home): the app hydrates
   * them (keeps their elements) instead of drawing the screen again. A screen without it is a stand-in (the login:
   * its controls disabled, no test ids) that the app replaces.
   */
  hydratePath?: string;
}

/** A text no operator name contains: private-use characters around a word. */
export const BRAND_SLOT = '\uE000site-brand\uE000';

/** The root's attributes for a screen the app hydrates (server/http/spa-prerender.ts, src/app/start.tsx). */
export const HYDRATE_PATH = 'data-hydrate-path';
export const HYDRATE_LOCALE = 'data-hydrate-locale';

/** GET /api/lookup/info as the page embeds it: the operator's name and site, the demo flag, the registration's limits. */
export interface BootSiteInfo {
  name: string;
  website: string;
  demo: boolean;
  logo?: string;
  minPlayerAge?: number;
  passwordMinLength?: number;
}

/**
 * What the first screen needs from the server before it can draw itself (docs/client.md "First screen"): the
 * site info (operator name, demo flag), the chat switch and the site-active switch (the navigation guard's first
 * check). Embedded in the page as JSON (server/http/spa.ts `withBootData`), so the SPA renders the
 * demo banner and the brand on its first paint instead of after two lookups (a layout shift and a round trip).
 * A lookup that fails leaves its field out; the SPA then asks as before.
 */
export interface BootData {
  info?: BootSiteInfo;
  chat?: { enableChatWidget: boolean };
  /** The site-active switch at the time the page was served: the navigation guard's first check. */
  active?: { terminated: 'gone' | null };
}
