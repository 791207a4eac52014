import { useTranslation } from 'react-i18next';

import { EmptyState } from '../../components/EmptyState';
import { Modal } from '../../components/Modal';
import { SafeHtml } from '../../components/SafeHtml';
import { Skeleton } from '../../components/Skeleton';
import { useAppSelector } from '../../core/hooks';
import { useGetConditionsQuery } from '../../core/lookupApi';
import { selectLocale } from '../../core/prefs';
import { CONDITIONS_MODAL } from './conditionsModalId';

/** The conditions list from GET /api/lookup/conditions, each item server HTML, sanitized. */
export function ConditionsModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const { data, isLoading, isError } = useGetConditionsQuery(useAppSelector(selectLocale));
  return (
    <Modal id={CONDITIONS_MODAL} title={t('conditions.title')} onClose={onClose}>
      {isLoading && <Skeleton rows={4} />}
      {isError && <p>{t('conditions.failed')}</p>}
      {data && data.length === 0 && <EmptyState text={t('conditions.empty')} />}
      {data && data.length > 0 && (
        <ol className="conditions">
          {data.map((html, index) => (
            <SafeHtml key={index} as="li" html={html} />
          ))}
        </ol>
      )}
    </Modal>
  );
}

export default ConditionsModal;
