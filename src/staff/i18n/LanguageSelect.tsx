import { useId } from 'react';

import { isLocale, LOCALE_NAMES, LOCALES, standardLanguageTag } from '../../lib/locale';
import { useStaffI18n } from './I18n';

/** th, la, en, each named in its own language; remembered on this device for the console only. */
export function LanguageSelect() {
  const { t, locale, setLocale } = useStaffI18n();
  const id = useId();
  return (
    <div className="staff-language">
      <label htmlFor={id}>{t('common.language')}</label>
      <select id={id} value={locale} onChange={(e) => isLocale(e.target.value) && setLocale(e.target.value)}>
        {LOCALES.map((lng) => (
          <option key={lng} value={lng} lang={standardLanguageTag(lng)}>
            {LOCALE_NAMES[lng]}
          </option>
        ))}
      </select>
    </div>
  );
}
