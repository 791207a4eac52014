import { useTranslation } from 'react-i18next';

import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { PageTitle } from '../../components/PageTitle';

/** /terminated: the site or the account is gone (spec §2, §8). Nothing else can be reached from here. */
export default function TerminatedPage() {
  const { t } = useTranslation();
  return (
    <div className="layout layout--bare">
      <header className="top-bar">
        <span className="top-bar__brand">{t('app.name')}</span>
        <div className="top-bar__actions">
          <LanguageSwitcher />
        </div>
      </header>
      <main id="main" className="page page--center" data-testid="terminated">
        <PageTitle>{t('terminated.title')}</PageTitle>
        <p>{t('terminated.body')}</p>
      </main>
    </div>
  );
}
