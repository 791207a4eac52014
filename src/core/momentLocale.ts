import moment from 'moment';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { isLocale, standardLanguageTag, type Locale } from '../lib/locale';
import { DEFAULT_LOCALE, onLocaleForMoment } from './i18n';

/**
 * moment's Thai and Lao (lo) locale data, loaded on demand. Only screens that show dates import this module,
 * so moment stays out of the first screen's download.
 */
const loaders: Record<Locale, () => Promise<unknown>> = {
  en: () => Promise.resolve(),
  th: () => import(/* webpackChunkName: "moment-th" */ 'moment/locale/th'),
  la: () => import(/* webpackChunkName: "moment-lo" */ 'moment/locale/lo'),
};

const loaded = new Set<Locale>(['en']);

export async function loadMomentLocale(locale: Locale): Promise<void> {
  if (!loaded.has(locale)) {
    await loaders[locale]();
    loaded.add(locale);
  }
  moment.locale(standardLanguageTag(locale));
}

onLocaleForMoment((locale) => void loadMomentLocale(locale));

/** True once moment speaks the current language; screens may render dates before, in English. */
export function useMomentLocale(): boolean {
  const { i18n } = useTranslation();
  const locale: Locale = isLocale(i18n.language) ? i18n.language : DEFAULT_LOCALE;
  const [ready, setReady] = useState(loaded.has(locale));
  useEffect(() => {
    let alive = true;
    setReady(loaded.has(locale));
    void loadMomentLocale(locale).then(() => alive && setReady(true));
    return () => {
      alive = false;
    };
  }, [locale]);
  return ready;
}
