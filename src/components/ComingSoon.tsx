import { useTranslation } from 'react-i18next';

import { PageTitle } from './PageTitle';

/** An honest stand-in for a screen another part of the work delivers: its title and a 'coming soon' line. */
export function ComingSoon({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <section className="page page--placeholder">
      <PageTitle>{t(titleKey)}</PageTitle>
      <p className="muted">{t('common.comingSoon')}</p>
    </section>
  );
}
