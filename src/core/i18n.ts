import i18next from 'i18next';
import type { BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';

import { LOCALES, standardLanguageTag, type Locale } from '../lib/locale';
import { MARKET } from './build';
import { retryImport } from './retryImport';

export const i18n = i18next.createInstance();

/** th by default, la in the Lao-market build (spec §9). */
export const DEFAULT_LOCALE: Locale = MARKET === 'lao' ? 'la' : 'th';

type Texts = Record<string, unknown>;
type Part = 'public' | 'user';
const textsOf = (module: { default?: unknown }) => (module.default ?? module) as Texts;

/**
 * Two chunks per language, split at build time from the one locales/<lng>.json (src/core/localeParts.ts): the
 * public part (shell, public pages, errors) at start, the user part with the player's area. Only the active
 * language is downloaded.
 */
const loadPart: Record<Part, (lng: string) => Promise<Texts>> = {
  public: (lng) => import(/* webpackChunkName: "locale-[request]-public" */ `../../locales/${lng}.json?part=public`).then(textsOf),
  user: (lng) => import(/* webpackChunkName: "locale-[request]-user" */ `../../locales/${lng}.json?part=user`).then(textsOf),
};

let ready: Promise<unknown> | null = null;
/** The language last asked for (initI18n): the active one, or the one a switch under way goes to. */
let requestedLanguage: string | undefined;

/** Set once the player's area has been opened: from then on a language loads with both parts. */
let userTextsWanted = false;
/** The languages whose user part is in i18next's store. */
const userTextsLoaded = new Set<string>();

/**
 * An i18next backend over the dynamic imports above (what i18next-resources-to-backend does, in a few lines): the
 * public part, and the user part too once it is wanted; one bundle, namespace 'translation'.
 */
const lazyResources: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, _namespace, callback) => {
    const withUser = userTextsWanted;
    Promise.all([loadPart.public(language), withUser ? loadPart.user(language) : {}]).then(
      ([publicTexts, userTexts]) => {
        callback(null, { ...publicTexts, ...userTexts }); // i18next stores the bundle here, synchronously
        if (withUser) userTextsLoaded.add(language);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

/** `lng`'s user part in the store: with its public part when neither is loaded yet, else merged into it. */
async function ensureUserTexts(lng: string): Promise<void> {
  if (!userTextsLoaded.has(lng) && !i18n.hasResourceBundle(lng, 'translation')) await i18n.loadLanguages(lng);
  // Loaded before the user part was wanted (or that load was already under way): merge the user part in.
  if (!userTextsLoaded.has(lng)) {
    i18n.addResourceBundle(lng, 'translation', await loadPart.user(lng), true, true);
    userTextsLoaded.add(lng);
  }
}

/**
 * The player's area's texts (the user route's lazy() awaits this with the layout chunk): the user part of the
 * active language, and of the one being switched to, if any. Later language switches load both parts.
 */
export async function loadUserTexts(): Promise<void> {
  userTextsWanted = true;
  await ready;
  const languages = new Set([i18n.language, requestedLanguage].filter((lng): lng is string => Boolean(lng)));
  await Promise.all([...languages].map(ensureUserTexts));
}

/** Initialise once with the given language; later calls switch language. */
export function initI18n(lng: Locale): Promise<unknown> {
  requestedLanguage = lng;
  if (!ready) {
    ready = i18n
      .use(lazyResources)
      .use(initReactI18next)
      .init({
        lng,
        supportedLngs: [...LOCALES],
        // No fallback language: the parity test guarantees every key exists in all three, and a fallback
        // would download a second language.
        fallbackLng: false,
        load: 'currentOnly',
        interpolation: { escapeValue: false },
        react: { useSuspense: true, bindI18n: 'languageChanged loaded' },
      });
  }
  // A language loaded on a public page has no user part yet: add it before the switch shows in the player's area
  // (if it cannot be downloaded, the switch goes ahead, as i18next's own does when a language fails to load).
  return ready
    .then(() => (userTextsWanted ? retryImport(() => ensureUserTexts(lng)).catch((error: unknown) => console.warn('user texts not loaded', lng, error)) : undefined))
    .then(() => (i18n.language === lng ? undefined : i18n.changeLanguage(lng)));
}

/** The cookie that tells the server which language to draw /login in next time (server/http/spa-prerender.ts). */
export const langCookie = (locale: Locale) => `lang=${locale}; path=/; max-age=31536000; samesite=lax`;

/** The language whose <html lang> and cookie this page has written (applyLocale). */
let written: Locale | undefined;

/**
 * <html lang> and the language cookie, written only when they change: the boot applies the stored language and the
 * app's LocaleSync applies it again after the first render, and in Chromium setting document.cookie is a
 * synchronous call to the browser's network process (~20 ms of one of /user/home's long tasks in Lighthouse's trace,
 * docs/client.md "First screen"). A cookie already naming the language (the server drew the page in it) is kept.
 */
function writeLanguage(locale: Locale): void {
  if (typeof document === 'undefined' || written === locale) return;
  written = locale;
  const tag = standardLanguageTag(locale);
  if (document.documentElement.lang !== tag) document.documentElement.lang = tag;
  if (!document.cookie.split('; ').includes(`lang=${locale}`)) document.cookie = langCookie(locale);
}

/** Switch the UI language: i18next, <html lang> (lo for la), and moment if a screen has loaded it. */
export async function applyLocale(locale: Locale): Promise<void> {
  writeLanguage(locale);
  await initI18n(locale);
  notifyMomentLocale(locale);
}

type MomentLocaleListener = (locale: Locale) => void;
let momentListener: MomentLocaleListener | null = null;

/** momentLocale.ts registers here once a screen has loaded moment, so the shell never imports moment. */
export function onLocaleForMoment(listener: MomentLocaleListener): void {
  momentListener = listener;
  listener(currentLocale());
}

function notifyMomentLocale(locale: Locale): void {
  momentListener?.(locale);
}

export function currentLocale(): Locale {
  const lng = i18n.language;
  return (LOCALES as readonly string[]).includes(lng) ? (lng as Locale) : DEFAULT_LOCALE;
}
