import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { agreementAccepted, selectAgreementAccepted, selectLocale } from '../../app/prefs';
import { Modal } from '../../components/Modal';
import { SafeHtml } from '../../components/SafeHtml';
import { useModal } from '../../components/useModal';
import { useGetAgreementsQuery } from './walletEndpoints';

export const AGREEMENT_MODAL = 'agreement';
/** Spec §9: the agreement opens 1.5 s after the home screen. */
export const AGREEMENT_DELAY_MS = 1500;

/** Opens the agreement 1.5 s after the home screen mounts, unless the player accepted it before (remember-agreement). */
export function useAgreementPrompt(): void {
  const accepted = useAppSelector(selectAgreementAccepted);
  const { open } = useModal(AGREEMENT_MODAL);
  useEffect(() => {
    if (accepted) return;
    const timer = setTimeout(open, AGREEMENT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [accepted, open]);
}

/** The agreements lookup (server HTML, sanitized) and an accept button that is remembered on this device. */
export function AgreementModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const { data, isLoading, isError } = useGetAgreementsQuery(useAppSelector(selectLocale));
  const accept = () => {
    dispatch(agreementAccepted());
    onClose();
  };
  return (
    <Modal id={AGREEMENT_MODAL} title={t('agreement.title')} onClose={onClose}>
      {isLoading && <p aria-busy="true">{t('common.loading')}</p>}
      {isError && <p>{t('agreement.failed')}</p>}
      {data && data.length > 0 && (
        <ol className="conditions">
          {data.map((html, index) => (
            <SafeHtml key={index} as="li" html={html} />
          ))}
        </ol>
      )}
      <button type="button" className="button button--primary" onClick={accept} data-testid="agreement-accept">
        {t('agreement.accept')}
      </button>
    </Modal>
  );
}
