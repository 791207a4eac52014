import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';

import { isLocale, standardLanguageTag, type Locale } from '../../lib/locale';
import { fill, TEXTS, type TextKey } from './texts';

const STORAGE_KEY = 'staff-locale';

export interface StaffI18n {
  locale: Locale;
  setLocale: (locale: Locale) => void;
  t: (key: TextKey, values?: Record<string, string | number>) => string;
  /** An error code as a sentence: its own text when the console has one, otherwise the generic one. */
  errorText: (code: string) => string;
  /** Date and time on the device's clock, Gregorian calendar in every language (as the player app shows). */
  formatDateTime: (iso: string) => string;
}

const Context = createContext<StaffI18n | null>(null);

function storedLocale(): Locale {
  try {
    const v = window.localStorage.getItem(STORAGE_KEY);
    return isLocale(v) ? v : 'th';
  } catch {
    return 'th';
  }
}

export function StaffI18nProvider({ children, initialLocale }: { children: ReactNode; initialLocale?: Locale }) {
  const [locale, setLocaleState] = useState<Locale>(() => initialLocale ?? storedLocale());

  useEffect(() => {
    document.documentElement.lang = standardLanguageTag(locale);
  }, [locale]);

  const setLocale = useCallback((next: Locale) => {
    setLocaleState(next);
    try {
      window.localStorage.setItem(STORAGE_KEY, next);
    } catch {
      // not remembered; the choice holds for this page
    }
  }, []);

  const value = useMemo<StaffI18n>(() => {
    const dict = TEXTS[locale];
    const t = (key: TextKey, values?: Record<string, string | number>) => fill(dict[key], values);
    const dateFormat = new Intl.DateTimeFormat(standardLanguageTag(locale), { dateStyle: 'medium', timeStyle: 'medium', calendar: 'gregory' });
    return {
      locale,
      setLocale,
      t,
      errorText: (code) => {
        const key = `errors.${code}` as TextKey;
        return key in dict ? dict[key] : dict['errors.GENERIC'];
      },
      formatDateTime: (iso) => {
        const d = new Date(iso);
        return Number.isNaN(d.getTime()) ? '' : dateFormat.format(d);
      },
    };
  }, [locale, setLocale]);

  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useStaffI18n(): StaffI18n {
  const value = useContext(Context);
  if (!value) throw new Error('useStaffI18n outside StaffI18nProvider');
  return value;
}
