import { useEffect } from 'react';

import { useAppSelector } from '../core/hooks';
import { applyLocale } from '../core/i18n';
import { selectLocale } from '../core/prefs';

/** Applies the persisted language choice: i18next, <html lang>, moment (when loaded). */
export function LocaleSync() {
  const locale = useAppSelector(selectLocale);
  useEffect(() => {
    void applyLocale(locale);
  }, [locale]);
  return null;
}
