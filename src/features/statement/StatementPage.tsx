import { useMemo, useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch } from '../../core/hooks';
import { MODAL } from '../../core/modalIds';
import { modalOpened } from '../../core/modalSlice';
import { DepositIcon, DotIcon, FlagIcon, GiftIcon, TransferIcon, WithdrawIcon } from '../../components/icons';
import { PageTitle } from '../../components/PageTitle';
import { Modal } from '../../components/Modal';
import { PagedList } from '../../components/PagedList';
import { Receipt } from '../../components/Receipt';
import { receiptFromStatement } from '../../components/receipt';
import { useFormatAmount } from '../../components/useFormatAmount';
import { useModal } from '../../components/useModal';
import { useNow } from '../../components/useNow';
import { formatDateTime, formatRelativeTime, pageCount, selectStatementSign } from '../../lib/format';
import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { selectAccountNames } from '../../components/receipt';
import {
  STATEMENT_FILTERS,
  STATEMENT_PAGE_SIZE,
  useGetStatementBankNamesQuery,
  useGetStatementBonusNamesQuery,
  useGetStatementsQuery,
  type StatementEntry,
  type StatementFilter,
} from './statementApi';
import { activityText, dayLabel, entryKind, groupByDay, lineDirection, lineOutcome, lineRef, reviewReasonText, signedAmount, type AccountNames, type EntryKind, type Texts } from './statementRules';
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
function Entry({ entry, texts, names, now, onReceipt }: { entry: StatementEntry; texts: Texts; names: AccountNames; now: number; onReceipt: (entry: StatementEntry) => void }) {
  const { t } = texts;
  const format = useFormatAmount();
  const kind = entryKind(entry.statementType);
  const Icon = ICONS[kind];
  const status = lineOutcome(entry);
  const direction = lineDirection(entry);
  const sign = selectStatementSign(entry.statementType);
  const activity = activityText(entry, texts, names);
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
          {activity}
        </p>
        {entry.reason && entry.status === 'IN_PROGRESS' && (
          <p className="statement-entry__note" data-testid="statement-review">
            {t('statement.inReview', { reason: reviewReasonText(entry.reason, texts) })}
          </p>
        )}
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
          </span>{' '}
          <span className="statement-entry__ref" translate="no" data-testid="statement-ref">
            {t('statement.ref', { ref: lineRef(entry) })}
          </span>
        </p>
      </div>
      <div className={`statement-entry__money statement-entry__money--${direction}`} data-direction={direction}>
        <p className="statement-entry__amount" data-testid="statement-amount">
          {signedAmount(entry, format)}
        </p>
        {sign === '' && (
          <p className="statement-entry__direction" data-testid="statement-direction">
            {t(`statement.direction.${direction}`)}
          </p>
        )}
      </div>
      <button
        type="button"
        className="button statement-entry__receipt"
        onClick={() => onReceipt(entry)}
        aria-haspopup="dialog"
        aria-label={t('statement.viewReceiptOf', { activity, amount: format(entry.amount) })}
        data-testid="statement-receipt"
      >
        {t('statement.viewReceipt')}
      </button>
    </li>
  );
}

/** Movements whose own id the player was shown when they happened (issue 12): their receipt keeps that id. */
const MOVEMENT_TYPES = new Set(['transfer', 'withdraw', 'deposit']);

/**
 * A line's receipt in the statement's words (a clawback is taken back, not failed). Its reference: a transfer's,
 * withdrawal's or deposit's own id, as the receipt right after it said (issue 12); for every other line (a bonus,
 * its end, a prize) the short reference the line shows, never an internal id such as a bonus's "1" (issue 40).
 */
function statementReceipt(entry: StatementEntry, { t }: Texts) {
  const outcome = lineOutcome(entry);
  const base = receiptFromStatement(entry);
  const reference = MOVEMENT_TYPES.has(entry.statementType) && entry.reference ? entry.reference : lineRef(entry);
  return {
    // The clawback did happen: its receipt is not the red of a failure.
    receipt: { ...base, reference, status: outcome.key === 'takenBack' ? 'SUCCESS' : base.status },
    statusLabel: t(`statement.status.${outcome.key}`),
  };
}

/** Names for the codes of the lines, in the player's language: games (wallet), banks (lookup), bonuses (bonus list). */
function useStatementNames(): AccountNames {
  const locale = useAppSelector(selectLocale);
  const { games } = useAppSelector(selectAccountNames);
  const banks = useGetStatementBankNamesQuery(locale).data;
  const bonuses = useGetStatementBonusNamesQuery().data?.bonuses;
  return useMemo(
    () => ({
      games,
      banks: Object.fromEntries((Array.isArray(banks) ? banks : []).map((b) => [b.code, b.name || (locale === 'en' ? b.nameEN : b.nameTH) || b.code])),
      bonuses: Object.fromEntries((Array.isArray(bonuses) ? bonuses : []).map((b) => [b.code, b.name?.[locale] || b.code])),
    }),
    [games, banks, bonuses, locale],
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
  const [filter, setFilter] = useState<StatementFilter | ''>('');
  const list = useGetStatementsQuery({ page, limit: STATEMENT_PAGE_SIZE, ...(filter ? { type: filter } : {}) }, { refetchOnMountOrArgChange: true });
  const names = useStatementNames();
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
        <label className="statement__filter">
          <span>{t('statement.filter.label')}</span>{' '}
          <select
            value={filter}
            onChange={(event) => {
              setFilter(event.target.value as StatementFilter | '');
              setPage(1);
            }}
            data-testid="statement-filter"
          >
            <option value="">{t('statement.filter.all')}</option>
            {STATEMENT_FILTERS.map((type) => (
              <option key={type} value={type}>
                {t(`statement.filter.${type}`)}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="button"
          onClick={() => dispatch(modalOpened(MODAL.slipHistory))}
          aria-haspopup="dialog"
          data-testid="statement-slip-status"
        >
          {t('statement.uploadStatus')}
        </button>
      </div>
      <PagedList
        className="statement__list"
        title={t('statement.list')}
        titleId="statement-list-title"
        titleClassName="visually-hidden"
        heading="h2"
        query={list}
        items={list.data?.statements}
        emptyText={t('statement.empty')}
        testId="statement"
        page={page}
        pages={pages}
        onPage={setPage}
        pagesLabel={t('statement.pages')}
      >
        {(statements) => (
          <div className="statement-days" data-testid="statement-list">
            {groupByDay(statements).map((group) => (
              <section key={group.day} className="statement-day" aria-label={dayLabel(group.day, now, texts.t)}>
                <h3 className="statement-day__title" data-testid="statement-day">
                  {dayLabel(group.day, now, texts.t)}
                </h3>
                <ol className="statement-entries">
                  {group.entries.map((entry) => (
                    <Entry key={entry._id} entry={entry} texts={texts} names={names} now={now} onReceipt={openReceipt} />
                  ))}
                </ol>
              </section>
            ))}
          </div>
        )}
      </PagedList>
      {receiptModal.isOpen && receiptOf && (
        <Modal id={STATEMENT_RECEIPT_MODAL} title={t('receipt.modalTitle')} onClose={receiptModal.close}>
          <Receipt {...statementReceipt(receiptOf, texts)} onClose={receiptModal.close} takeFocus={false} />
        </Modal>
      )}
    </section>
  );
}
