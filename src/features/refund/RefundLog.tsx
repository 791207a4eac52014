import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { Pagination } from '../../components/Pagination';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { useFormatAmount } from '../../components/useFormatAmount';
import { formatDateTime, pageCount } from '../../lib/format';
import { REFUND_PAGE_SIZE, useGetRefundLogQuery } from './refundApi';
import { EmptyState } from '../../components/EmptyState';
import { Skeleton } from '../../components/Skeleton';

/** Spec §2: the refund log, 10 a page with the pagination window of spec §9. A failed load only hides the loader. */
export function RefundLog() {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const [page, setPage] = useState(1);
  const log = useGetRefundLogQuery({ page, limit: REFUND_PAGE_SIZE }, { refetchOnMountOrArgChange: true });
  const showLoading = useDelayedFlag(log.isLoading);
  const pages = pageCount(log.data?.total ?? 0, REFUND_PAGE_SIZE);

  return (
    <section className="refund-log" aria-labelledby="refund-log-title" aria-busy={log.isFetching}>
      <h3 id="refund-log-title" className="refund-log__title">
        {t('refund.log.title')}
      </h3>
      {log.isLoading && showLoading && (
        <Skeleton variant="card" testId="refund-log-loading" />
      )}
      {log.data &&
        (log.data.refunds.length === 0 ? (
          <EmptyState text={t('refund.log.empty')} testId="refund-log-empty" />
        ) : (
          <table className="refund-log__table" data-testid="refund-log">
            <thead>
              <tr>
                <th scope="col">{t('refund.log.date')}</th>
                <th scope="col" className="num">
                  {t('refund.log.amount')}
                </th>
              </tr>
            </thead>
            <tbody>
              {log.data.refunds.map((item, index) => (
                <tr key={`${item.createdAt}-${index}`} data-testid="refund-row">
                  <td>{formatDateTime(item.createdAt)}</td>
                  <td className="num">{format(item.refundAmount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <Pagination page={page} pages={pages} onPage={setPage} label={t('refund.log.pages')} />
    </section>
  );
}
