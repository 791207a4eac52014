import i18next from 'i18next';
import type { BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';

import { LOCALES, standardLanguageTag, type Locale } from '../lib/locale';
import { MARKET } from './build';

export const i18n = i18next.createInstance();

/** th by default, la in the Lao-market build (spec §9). */
export const DEFAULT_LOCALE: Locale = MARKET === 'lao' ? 'la' : 'th';

/** One chunk per language: only the active one is downloaded. */
export const loadLocaleResources = (lng: string) =>
  import(/* webpackChunkName: "locale-[request]" */ `../../locales/${lng}.json`);

/** An i18next backend over the dynamic import above (what i18next-resources-to-backend does, in six lines). */
const lazyResources: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read: (language, _namespace, callback) => {
    loadLocaleResources(language).then(
      (module: { default?: unknown }) => callback(null, (module.default ?? module) as Record<string, unknown>),
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), false),
    );
  },
};

let ready: Promise<unknown> | null = null;

/** Initialise once with the given language; later calls switch language. */
export function initI18n(lng: Locale): Promise<unknown> {
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
  return ready.then(() => (i18n.language === lng ? undefined : i18n.changeLanguage(lng)));
}

/** Switch the UI language: i18next, <html lang> (lo for la), and moment if a screen has loaded it. */
export async function applyLocale(locale: Locale): Promise<void> {
  if (typeof document !== 'undefined') document.documentElement.lang = standardLanguageTag(locale);
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
