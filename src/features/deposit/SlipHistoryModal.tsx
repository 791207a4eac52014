import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../app/hooks';
import { selectLocale } from '../../app/prefs';
import { Modal } from '../../components/Modal';
import { Pagination } from '../../components/Pagination';
import { formatDateTime, formatPositiveAmount, pageCount } from '../../lib/format';
import { SLIP_PAGE_SIZE, useGetSlipsQuery, useLazyGetSlipImageUrlQuery, type Slip } from './depositApi';
import { reasonTextKey } from './slipResult';
import '../../components/forms.css';
import './deposit.css';

/** The id of this modal in the modal stack; the statement page's upload-status button opens it. */
export const SLIP_HISTORY_MODAL = 'slipHistory';

/** Spec §4 slip status: in progress is the default (warning style), then SUCCESS and FAILED. */
export function slipStatusKind(status: string): 'success' | 'failed' | 'progress' {
  return status === 'SUCCESS' ? 'success' : status === 'FAILED' ? 'failed' : 'progress';
}

/**
 * Slip uploads (spec §2 statement, slip modal): a refreshable table of 10 a page from page 1 with the
 * received time, the amount (a dash unless above zero), the status with its reason, and a view link.
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
          <p role="status">{t('common.loading')}</p>
        ) : !data || data.slips.length === 0 ? (
          <p className="muted" data-testid="slips-empty">
            {t('deposit.history.empty')}
          </p>
        ) : (
          <div className="table-scroll" tabIndex={0} role="region" aria-label={t('deposit.history.title')}>
            <table className="slip-table" data-testid="slips-table" aria-busy={isFetching}>
              <thead>
                <tr>
                  <th scope="col">{t('deposit.history.received')}</th>
                  <th scope="col" className="num">
                    {t('deposit.history.amount')}
                  </th>
                  <th scope="col">{t('deposit.history.status.title')}</th>
                  <th scope="col">
                    <span className="visually-hidden">{t('deposit.history.view')}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.slips.map((slip) => (
                  <tr key={slip.id} data-testid="slip-row">
                    <td>{formatDateTime(slip.createdAt)}</td>
                    <td className="num">{formatPositiveAmount(slip.amount, locale)}</td>
                    <td>
                      <span className={`slip-status slip-status--${slipStatusKind(slip.status)}`}>{statusText(slip)}</span>
                    </td>
                    <td>
                      {slip.link ? (
                        <a href={slip.link} target="_blank" rel="noopener noreferrer" aria-label={t('deposit.history.viewLabel', { time: formatDateTime(slip.createdAt) })}>
                          {t('deposit.history.view')}
                        </a>
                      ) : slip.reference ? (
                        <button
                          type="button"
                          className="link-button"
                          onClick={() => void openByReference(slip)}
                          aria-label={t('deposit.history.viewLabel', { time: formatDateTime(slip.createdAt) })}
                        >
                          {t('deposit.history.view')}
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pagination page={page} pages={pages} onPage={setPage} label={t('deposit.history.pages')} />
      </div>
    </Modal>
  );
}
