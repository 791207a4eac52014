/** The app's languages (spec §1). `la` is Lao, whose standard code is `lo`. */
export const LOCALES = ['th', 'la', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** The standard tag for <html lang>, moment and Intl: `lo` for the app's `la`. */
export function standardLanguageTag(locale: Locale): 'th' | 'lo' | 'en' {
  return locale === 'la' ? 'lo' : locale;
}

/** Each language's own name, shown in the switcher whatever the current language is. */
export const LOCALE_NAMES: Record<Locale, string> = { th: 'ไทย', la: 'ລາວ', en: 'English' };
