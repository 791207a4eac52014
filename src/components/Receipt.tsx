import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../core/hooks';
import { formatDateTime } from '../lib/format';
import { receiptAccountName, receiptKind, receiptStatus, selectAccountNames, type ReceiptData } from './receipt';
import { useFormatAmount } from './useFormatAmount';
import './receipt.css';

interface Props {
  receipt: ReceiptData;
  /** A line under the status that says what happens next (the wait-for-transfer text), when there is one. */
  note?: ReactNode;
  /** The close button's action; without it the receipt has no button (it stays above a form that goes on). */
  onClose?: () => void;
  /** The close button's label; OK unless told. */
  closeLabel?: string;
  /**
   * Whether the heading takes the focus (default): for a receipt replacing a form in an open dialog. A dialog
   * opened to show it leaves this false, so its own focus handling (and the way back) stays as it is.
   */
  takeFocus?: boolean;
  /** What happened in words, where the generic status would mislead (issue 40: a bonus taken back is not "failed"). */
  statusLabel?: string;
}

/**
 * A receipt (issue 12) after a deposit, withdrawal or transfer, and again from the statement: the amount, from
 * and to, the time, the reference and the status. Its heading takes the focus, so a screen reader reads it.
 */
export function Receipt({ receipt, note, onClose, closeLabel, takeFocus = true, statusLabel }: Props) {
  const { t, i18n } = useTranslation();
  const format = useFormatAmount();
  const names = useAppSelector(selectAccountNames);
  const titleId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (takeFocus) heading.current?.focus();
  }, [takeFocus]);
  const status = receiptStatus(receipt.status);
  const kind = receiptKind(receipt.kind);
  const known = (code: string) => {
    const key = `statement.accounts.${code}`;
    return i18n.exists(key) ? (t(key) as string) : null;
  };
  const name = (code: string) => receiptAccountName(code, names, i18n.language, known);

  return (
    <section className={`receipt receipt--${status}`} aria-labelledby={titleId} data-testid="receipt">
      <p className="receipt__status">
        <span className="receipt__mark" aria-hidden="true">
          {status === 'success' ? '✓' : status === 'failed' ? '✕' : '…'}
        </span>
        <span data-testid="receipt-status">{statusLabel ?? t(`statement.status.${status}`)}</span>
      </p>
      <h3 id={titleId} ref={heading} tabIndex={-1} className="receipt__title">
        {t(`receipt.title.${kind}`)}
      </h3>
      <p className="receipt__amount" data-testid="receipt-amount">
        {format(receipt.amount)} <span className="receipt__unit">{t('wallet.baht')}</span>
      </p>
      {note && (
        <p className="receipt__note" role="status" data-testid="receipt-note">
          {note}
        </p>
      )}
      <dl className="receipt__facts">
        <div>
          <dt>{t('receipt.from')}</dt>
          <dd data-testid="receipt-from">{name(receipt.from)}</dd>
        </div>
        <div>
          <dt>{t('receipt.to')}</dt>
          <dd data-testid="receipt-to">{name(receipt.to)}</dd>
        </div>
        <div>
          <dt>{t('receipt.time')}</dt>
          <dd>
            <time dateTime={receipt.at} data-testid="receipt-time">
              {formatDateTime(receipt.at)}
            </time>
          </dd>
        </div>
        <div>
          <dt>{t('receipt.reference')}</dt>
          <dd className="receipt__reference" data-testid="receipt-reference">
            {receipt.reference || '-'}
          </dd>
        </div>
      </dl>
      {onClose && (
        <button type="button" className="button button--primary receipt__close" onClick={onClose}>
          {closeLabel ?? t('wallet.ok')}
        </button>
      )}
    </section>
  );
}
