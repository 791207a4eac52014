import { useTranslation } from 'react-i18next';

import { PageTitle } from '../components/PageTitle';

/** Shown when a route fails to load (a chunk that cannot be fetched after a deploy, an unexpected error). */
export function RouteError() {
  const { t } = useTranslation();
  return (
    <main className="page page--center" id="main">
      <PageTitle>{t('routeError.title')}</PageTitle>
      <p>{t('routeError.body')}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {t('routeError.reload')}
      </button>
    </main>
  );
}
