/**
 * Each language's texts (locales/<lng>.json, the one file translators edit) ship as two chunks with the same key
 * space, split at build time (webpack.config.ts, `?part=public|user`):
 * - public: every section not listed below, loaded at start (the shell, the public pages, toasts and errors,
 *   the guest chat, PWA/offline/chunk-error texts);
 * - user: the sections below, loaded with the player's area (/user) and merged into the same namespace.
 * A new section is public until it is listed here. localeParts.test.ts fails when a public screen uses a user
 * section. Webpack and the tests import this module; the app itself does not (it only asks for a part).
 */
export const USER_SECTIONS: readonly string[] = [
  'agreement',
  'bankName',
  'banners',
  'bonus',
  'bonusLock',
  'conditions',
  'deposit',
  'gameAccount',
  'home',
  'invite',
  'limits',
  'pagination',
  'password',
  'profile',
  'reality',
  'receipt',
  'refund',
  'slipAdvice',
  'slipReasons',
  'statement',
  'transfer',
  'wallet',
  'wheel',
  'withdraw',
];

export type LocalePart = 'public' | 'user';

/** The top-level sections of `texts` that belong to `part`. */
export function localePart(texts: Record<string, unknown>, part: LocalePart): Record<string, unknown> {
  return Object.fromEntries(Object.entries(texts).filter(([section]) => USER_SECTIONS.includes(section) === (part === 'user')));
}
