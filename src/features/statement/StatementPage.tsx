import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch } from '../../app/hooks';
import { modalOpened } from '../../app/modalSlice';
import { DepositIcon, DotIcon, FlagIcon, GiftIcon, TransferIcon, WithdrawIcon } from '../../components/icons';
import { PageTitle } from '../../components/PageTitle';
import { Modal } from '../../components/Modal';
import { Pagination } from '../../components/Pagination';
import { Receipt } from '../../components/Receipt';
import { receiptFromStatement } from '../../components/receipt';
import { useDelayedFlag } from '../../components/useDelayedFlag';
import { useFormatAmount } from '../../components/useFormatAmount';
import { useModal } from '../../components/useModal';
import { useNow } from '../../components/useNow';
import { formatDateTime, formatRelativeTime, pageCount, selectStatementSign } from '../../lib/format';
import { STATEMENT_PAGE_SIZE, useGetStatementsQuery, type StatementEntry } from './statementApi';
import { activityText, entryKind, signedAmount, statusView, type EntryKind, type Texts } from './statementRules';
import { EmptyState } from '../../components/EmptyState';
import { Skeleton } from '../../components/Skeleton';
import './statement.css';

const ICONS: Record<EntryKind, ComponentType> = {
  deposit: DepositIcon,
  bonus: GiftIcon,
  finishBonus: FlagIcon,
  withdraw: WithdrawIcon,
  transfer: TransferIcon,
  other: DotIcon,
};

/** The statement's receipt dialog (issue 12: a movement's receipt is reachable again from the statement). */
export const STATEMENT_RECEIPT_MODAL = 'statementReceipt';

/**
 * One entry: icon and label by type, the activity, the status, the date-time and how long ago, the signed amount,
 * and a button that opens its receipt.
 */
function Entry({ entry, texts, now, onReceipt }: { entry: StatementEntry; texts: Texts; now: number; onReceipt: (entry: StatementEntry) => void }) {
  const { t } = texts;
  const format = useFormatAmount();
  const kind = entryKind(entry.statementType);
  const Icon = ICONS[kind];
  const status = statusView(entry.status);
  const sign = selectStatementSign(entry.statementType);
  return (
    <li className="statement-entry" data-testid="statement-entry">
      <span className={`statement-entry__icon statement-entry__icon--${kind}`} data-kind={kind}>
        <Icon />
      </span>
      <div className="statement-entry__body">
        <p className="statement-entry__type" data-testid="statement-type">
          {t(`statement.type.${kind}`)}
        </p>
        <p className="statement-entry__activity" data-testid="statement-activity">
          {activityText(entry, texts)}
        </p>
        {entry.note && entry.status === 'FAILED' && (
          <p className="statement-entry__note" data-testid="statement-note">
            {t('statement.reason', { reason: entry.note })}
          </p>
        )}
        <p className="statement-entry__meta">
          <span className={`statement-status statement-status--${status.tone}`} data-testid="statement-status">
            {t(`statement.status.${status.key}`)}
          </span>{' '}
          <time dateTime={entry.createdAt} data-testid="statement-date">
            {formatDateTime(entry.createdAt)}
          </time>{' '}
          <span className="statement-entry__ago" data-testid="statement-ago">
            {formatRelativeTime(entry.createdAt, t, now)}
          </span>
        </p>
      </div>
      <p className={`statement-entry__amount statement-entry__amount--${sign === '+' ? 'in' : sign === '-' ? 'out' : 'none'}`} data-testid="statement-amount">
        {signedAmount(entry, format)}
      </p>
      <button
        type="button"
        className="button statement-entry__receipt"
        onClick={() => onReceipt(entry)}
        aria-haspopup="dialog"
        aria-label={t('statement.viewReceiptOf', { activity: activityText(entry, texts), amount: format(entry.amount) })}
        data-testid="statement-receipt"
      >
        {t('statement.viewReceipt')}
      </button>
    </li>
  );
}

/**
 * /user/statement (spec §2): the upload-status button (the slip history modal) and the player's statement, 10
 * entries a page with the pagination window of spec §9, newest first. The loader shows after 200 ms; a failed
 * load only hides it (spec §8); an empty statement says so.
 */
export default function StatementPage() {
  const { t, i18n } = useTranslation();
  const dispatch = useAppDispatch();
  const now = useNow();
  const [page, setPage] = useState(1);
  const list = useGetStatementsQuery({ page, limit: STATEMENT_PAGE_SIZE }, { refetchOnMountOrArgChange: true });
  const showLoading = useDelayedFlag(list.isLoading);
  const pages = pageCount(list.data?.total ?? 0, STATEMENT_PAGE_SIZE);
  const texts: Texts = { t: (key, options) => t(key, options) as string, exists: (key) => i18n.exists(key) };
  const receiptModal = useModal(STATEMENT_RECEIPT_MODAL);
  const [receiptOf, setReceiptOf] = useState<StatementEntry | null>(null);
  const openReceipt = (entry: StatementEntry) => {
    setReceiptOf(entry);
    receiptModal.open();
  };

  return (
    <section className="page statement">
      <PageTitle>{t('pages.statement')}</PageTitle>
      <div className="statement__bar">
        <button
          type="button"
          className="button"
          onClick={() => dispatch(modalOpened('slipHistory'))}
          aria-haspopup="dialog"
          data-testid="statement-slip-status"
        >
          {t('statement.uploadStatus')}
        </button>
      </div>
      <section className="statement__list" aria-labelledby="statement-list-title" aria-busy={list.isFetching}>
        <h2 id="statement-list-title" className="visually-hidden">
          {t('statement.list')}
        </h2>
        {list.isLoading && showLoading && (
          <Skeleton variant="card" testId="statement-loading" />
        )}
        {list.data &&
          (list.data.statements.length === 0 ? (
            <EmptyState text={t('statement.empty')} testId="statement-empty" />
          ) : (
            <ol className="statement-entries" data-testid="statement-list">
              {list.data.statements.map((entry) => (
                <Entry key={entry._id} entry={entry} texts={texts} now={now} onReceipt={openReceipt} />
              ))}
            </ol>
          ))}
        <Pagination page={page} pages={pages} onPage={setPage} label={t('statement.pages')} />
      </section>
      {receiptModal.isOpen && receiptOf && (
        <Modal id={STATEMENT_RECEIPT_MODAL} title={t('receipt.modalTitle')} onClose={receiptModal.close}>
          <Receipt receipt={receiptFromStatement(receiptOf)} onClose={receiptModal.close} takeFocus={false} />
        </Modal>
      )}
    </section>
  );
}
