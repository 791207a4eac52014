import { useTranslation } from 'react-i18next';

/** A list the step needs could not be loaded: say so and offer to try again. */
export function LookupFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="register__lookup-failed" role="alert">
      <p className="form__error">{t('register.lookupFailed')}</p>
      <button type="button" className="button" onClick={onRetry}>
        {t('register.retry')}
      </button>
    </div>
  );
}
