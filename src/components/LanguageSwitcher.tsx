import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../core/hooks';
import { localeChosen, selectLocale } from '../core/prefs';
import { isLocale, LOCALES, LOCALE_NAMES, standardLanguageTag } from '../lib/locale';

/** th, la, en; the choice is remembered (persisted `locale`) and applied by the app shell. */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
  const id = useId();
  return (
    <div className={['language-switcher', className].filter(Boolean).join(' ')}>
      <label htmlFor={id} className="visually-hidden">
        {t('common.language')}
      </label>
      <select
        id={id}
        data-testid="language-switcher"
        value={locale}
        onChange={(event) => isLocale(event.target.value) && dispatch(localeChosen(event.target.value))}
      >
        {LOCALES.map((lng) => (
          <option key={lng} value={lng} lang={standardLanguageTag(lng)}>
            {LOCALE_NAMES[lng]}
          </option>
        ))}
      </select>
    </div>
  );
}
