import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { PageTitle } from '../../components/PageTitle';

/** Any unknown path. The document title is 'Page Not Found' in every language (spec §2); the heading is translated. */
export default function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <div className="layout layout--bare">
      <header className="top-bar">
        <span className="top-bar__brand">{t('app.name')}</span>
        <div className="top-bar__actions">
          <LanguageSwitcher />
        </div>
      </header>
      <main id="main" className="page page--center">
        <PageTitle documentTitle="Page Not Found">{t('notFound.title')}</PageTitle>
        <p>{t('notFound.body')}</p>
        <Link to="/" className="button">
          {t('notFound.home')}
        </Link>
      </main>
    </div>
  );
}
