import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { EmptyState } from '../../components/EmptyState';
import { Modal } from '../../components/Modal';
import { Pagination } from '../../components/Pagination';
import { Skeleton } from '../../components/Skeleton';
import { formatDateTime, formatPositiveAmount, pageCount } from '../../lib/format';
import { SLIP_PAGE_SIZE, useGetSlipsQuery, useLazyGetSlipImageUrlQuery, type Slip } from './depositApi';
import { reasonTextKey } from './slipResult';
import '../../components/forms.css';
import './deposit.css';
import './slipHistory.css';

/** The id of this modal in the modal stack; the statement page's upload-status button opens it. */
export const SLIP_HISTORY_MODAL = 'slipHistory';

/** Spec §4 slip status: in progress is the default (warning style), then SUCCESS and FAILED. */
export function slipStatusKind(status: string): 'success' | 'failed' | 'progress' {
  return status === 'SUCCESS' ? 'success' : status === 'FAILED' ? 'failed' : 'progress';
}

/**
 * Slip uploads (spec §2 statement, slip modal): a refreshable list of 10 a page from page 1, a card per slip (a
 * four-column table does not fit 360 px) with the received time, the amount (a dash unless above zero), the
 * status with its reason, and a view link (a 44 px target).
 */
export default function SlipHistoryModal({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const [page, setPage] = useState(1);
  const { data, isLoading, isFetching, refetch } = useGetSlipsQuery({ page, limit: SLIP_PAGE_SIZE });
  const [fetchUrl] = useLazyGetSlipImageUrlQuery();
  const pages = pageCount(data?.total ?? 0, SLIP_PAGE_SIZE);

  // A slip without a direct link is opened through its reference (spec §7). The window is opened at the
  // click, so no popup blocker stops it, and pointed at the image once the link arrives.
  const openByReference = async (slip: Slip) => {
    if (!slip.reference) return;
    const opened = window.open('', '_blank');
    const result = await fetchUrl(slip.reference);
    if (result.data?.url && opened) {
      opened.opener = null;
      opened.location.href = result.data.url;
    } else {
      opened?.close();
    }
  };

  const statusText = (slip: Slip) => {
    const kind = slipStatusKind(slip.status);
    const label = t(`deposit.history.status.${kind}`);
    return slip.note ? `${label} (${t(reasonTextKey(slip.note, (key) => i18n.exists(key)))})` : label;
  };

  return (
    <Modal id={SLIP_HISTORY_MODAL} title={t('deposit.history.title')} onClose={onClose}>
      <div className="slip-history">
        <div className="slip-history__bar">
          <button type="button" className="button" onClick={() => void refetch()} disabled={isFetching} aria-busy={isFetching} data-testid="slips-refresh">
            {isFetching ? t('common.loading') : t('deposit.history.refresh')}
          </button>
        </div>
        {isLoading ? (
          <Skeleton rows={3} variant="card" />
        ) : !data || data.slips.length === 0 ? (
          <EmptyState text={t('deposit.history.empty')} testId="slips-empty" />
        ) : (
          <ul className="slip-cards" data-testid="slips-list" aria-busy={isFetching}>
            {data.slips.map((slip) => {
              const kind = slipStatusKind(slip.status);
              const viewLabel = t('deposit.history.viewLabel', { time: formatDateTime(slip.createdAt) });
              return (
                <li key={slip.id} className={`slip-card slip-card--${kind}`} data-testid="slip-row">
                  <dl className="slip-card__facts">
                    <div>
                      <dt>{t('deposit.history.received')}</dt>
                      <dd>{formatDateTime(slip.createdAt)}</dd>
                    </div>
                    <div>
                      <dt>{t('deposit.history.amount')}</dt>
                      <dd className="slip-card__amount">{formatPositiveAmount(slip.amount, locale)}</dd>
                    </div>
                    <div>
                      <dt>{t('deposit.history.status.title')}</dt>
                      <dd>
                        <span className={`slip-status slip-status--${kind}`}>{statusText(slip)}</span>
                      </dd>
                    </div>
                  </dl>
                  {slip.link ? (
                    <a className="link-button slip-card__view" href={slip.link} target="_blank" rel="noopener noreferrer" aria-label={viewLabel}>
                      {t('deposit.history.view')}
                    </a>
                  ) : slip.reference ? (
                    <button type="button" className="link-button slip-card__view" onClick={() => void openByReference(slip)} aria-label={viewLabel}>
                      {t('deposit.history.view')}
                    </button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
        <Pagination page={page} pages={pages} onPage={setPage} label={t('deposit.history.pages')} />
      </div>
    </Modal>
  );
}
