import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { BankMark } from '../../components/BankMark';
import { formatAccountNumber } from '../../lib/format';
import type { BankAccount } from '../../core/walletApi';

interface Props {
  /** The amount formatted like every amount (already checked against the limits and the balance). */
  amount: string;
  bank: BankAccount | undefined;
  bankName: string;
  busy: boolean;
  showBusy: boolean;
  onBack: () => void;
  onConfirm: () => void;
}

/**
 * Issue 40 item 10: before money leaves, the player sees what is sent where (amount, bank, account number, the
 * account's name) and confirms it; back returns to the form with the amount as typed.
 */
export function WithdrawModalReview({ amount, bank, bankName, busy, showBusy, onBack, onConfirm }: Props) {
  const { t } = useTranslation();
  const heading = useRef<HTMLHeadingElement>(null);
  // The step replaces the form: focus moves to its heading so a screen reader reads what is being confirmed.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="wallet-form" aria-labelledby="withdraw-review-title" aria-busy={busy} data-testid="withdraw-review">
      <h3 id="withdraw-review-title" ref={heading} tabIndex={-1} className="withdraw__review-title">
        {t('withdraw.reviewTitle')}
      </h3>
      <dl className="facts">
        <div>
          <dt>{t('withdraw.amount')}</dt>
          <dd data-testid="withdraw-review-amount">{amount}</dd>
        </div>
        {bank && (
          <>
            <div>
              <dt>{t('withdraw.reviewBank')}</dt>
              <dd data-testid="withdraw-review-bank">
                <BankMark code={bank.bankCode} size={28} /> {bankName}
              </dd>
            </div>
            <div>
              <dt>{t('withdraw.reviewAccount')}</dt>
              <dd className="nowrap" data-testid="withdraw-review-account">
                {formatAccountNumber(bank.bankAccountNo)}
              </dd>
            </div>
            <div>
              <dt>{t('withdraw.reviewName')}</dt>
              <dd data-testid="withdraw-review-name">{bank.bankAccountName}</dd>
            </div>
          </>
        )}
      </dl>
      <div className="wallet-form__actions">
        <button type="button" className="button" onClick={onBack} disabled={busy} data-testid="withdraw-back">
          {t('withdraw.back')}
        </button>
        <button type="button" className="button button--primary" onClick={onConfirm} disabled={busy} data-testid="withdraw-confirm">
          {showBusy ? t('withdraw.submitting') : t('withdraw.confirm')}
        </button>
      </div>
    </section>
  );
}
