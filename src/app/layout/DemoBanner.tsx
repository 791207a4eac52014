import { useTranslation } from 'react-i18next';

import { useGetSiteInfoQuery } from '../../core/lookupApi';

/** The simulated bank of demo mode: a server page (not an SPA route) that pays any QR and lists every player's account. */
export const DEMO_BANK_URL = '/demo/bank';

/**
 * Demo mode (the default of `npm start`) must be unmistakable: every page says that payments are simulated
 * and links to the demo bank. A slim strip in the document flow above the layout (it scrolls away and never
 * covers content); nothing at all when the server is not in demo mode or the info lookup fails.
 */
export function DemoBanner() {
  const { t } = useTranslation();
  // Only the flag: the banner renders again when it changes, not on every step of the request.
  const { demo } = useGetSiteInfoQuery(undefined, { selectFromResult: ({ data }) => ({ demo: data?.demo === true }) });
  if (!demo) return null;
  return (
    <aside className="demo-banner" aria-label={t('demo.label')} data-testid="demo-banner">
      <span className="demo-banner__text">{t('demo.text')}</span>{' '}
      <a className="demo-banner__link" href={DEMO_BANK_URL} target="_blank" rel="noopener noreferrer">
        {t('demo.bankLink')}
        <span className="visually-hidden"> {t('demo.newTab')}</span>
      </a>
    </aside>
  );
}
