/**
 * The prerendered screens, login and the player's home (src/prerender/ renders them at build time;
 * server/plugins/spa.ts puts them in their pages; docs/client.md "First screen"). Shared by the three, so the
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
}

/** A text no operator name contains: private-use characters around a word. */
export const BRAND_SLOT = '\uE000site-brand\uE000';
