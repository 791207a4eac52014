import { useTranslation } from 'react-i18next';

import { Modal } from '../../components/Modal';

export const COMING_SOON_MODAL = 'wallet-coming-soon';

/** An honest stand-in for a home modal a later part of the work delivers (invite, refund, spin wheel). */
export function ComingSoonModal({ titleKey, onClose }: { titleKey: string; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal id={COMING_SOON_MODAL} title={t(titleKey)} onClose={onClose}>
      <p data-testid="coming-soon">{t('home.comingSoon')}</p>
      <button type="button" className="button button--primary" onClick={onClose}>
        {t('wallet.ok')}
      </button>
    </Modal>
  );
}
