import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { PagedList } from '../../components/PagedList';
import { useFormatAmount } from '../../components/useFormatAmount';
import { formatDateTime, pageCount } from '../../lib/format';
import { REFUND_PAGE_SIZE, useGetRefundLogQuery } from './refundApi';

/** Spec §2: the refund log, 10 a page with the pagination window of spec §9. A failed load only hides the loader. */
export function RefundLog() {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const [page, setPage] = useState(1);
  const log = useGetRefundLogQuery({ page, limit: REFUND_PAGE_SIZE }, { refetchOnMountOrArgChange: true });
  const pages = pageCount(log.data?.total ?? 0, REFUND_PAGE_SIZE);

  return (
    <PagedList
      className="refund-log"
      title={t('refund.log.title')}
      titleId="refund-log-title"
      query={log}
      items={log.data?.refunds}
      emptyText={t('refund.log.empty')}
      testId="refund-log"
      page={page}
      pages={pages}
      onPage={setPage}
      pagesLabel={t('refund.log.pages')}
    >
      {(refunds) => (
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
            {refunds.map((item, index) => (
              <tr key={`${item.createdAt}-${index}`} data-testid="refund-row">
                <td>{formatDateTime(item.createdAt)}</td>
                <td className="num">{format(item.refundAmount)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </PagedList>
  );
}
