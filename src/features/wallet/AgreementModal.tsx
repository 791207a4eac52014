import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { agreementAccepted, selectLocale } from '../../core/prefs';
import { Modal } from '../../components/Modal';
import { SafeHtml } from '../../components/SafeHtml';
import { AGREEMENT_MODAL } from './agreementPrompt';
import { useGetAgreementsQuery } from './walletEndpoints';

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

export default AgreementModal;
