import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { BankMark } from '../../components/BankMark';
import { BonusLockNotice } from '../../components/BonusLockNotice';
import { Modal } from '../../components/Modal';
import { Receipt } from '../../components/Receipt';
import { useBonusLock } from '../../components/useBonusLock';
import { useGetProfileQuery } from '../../core/accountApi';
import { writeAmount } from '../../lib/amountInput';
import { formatAccountNumber, formatDateTime } from '../../lib/format';
import { AmountField } from './AmountField';
import { useDelayedFlag, useFormatAmount, useMoneyMove } from './hooks';
import { MoveAlert, resultText } from './MoveAlert';
import { WithdrawModalReview } from './WithdrawModalReview';
import { parseAmountInput } from './money';
import { validateWithdraw, withdrawAllSatang, type RuleError } from './rules';
import { selectWallet } from './selectors';
import { useGetWithdrawLimitsQuery } from './walletEndpoints';

export const WITHDRAW_MODAL = 'withdraw';

/** Spec §2 withdraw: an amount within the lookup's bounds, paid to the registered bank account. */
export function WithdrawModal({ onClose }: { onClose: (changed: boolean) => void }) {
  const { t, i18n } = useTranslation();
  const format = useFormatAmount();
  const locale = useAppSelector(selectLocale);
  const wallet = useAppSelector(selectWallet);
  const limits = useGetWithdrawLimitsQuery();
  const { flow, attempted, run, dismiss } = useMoneyMove();
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<RuleError | null>(null);
  /** Issue 40 item 10: amount -> review -> submit; the amount stays as typed when the player goes back. */
  const [reviewing, setReviewing] = useState(false);
  const amountField = useRef<HTMLInputElement>(null);
  const busy = flow.status === 'submitting';
  const showBusy = useDelayedFlag(busy);
  const showLoading = useDelayedFlag(limits.isLoading);
  // Refused during the hold after a bank change (issue 39 row 6): the profile says when it ends.
  const cooling = flow.status === 'failed' && flow.code === 'BANK_CHANGE_COOLDOWN';
  const holdUntil = useGetProfileQuery(undefined, { skip: !cooling }).data?.bankAccount?.withdrawHoldUntil;
  // Issue 40: an active bonus's lock is said before the amount, not found only after submitting.
  const bonus = useBonusLock();
  const refusedByBonus = flow.status === 'failed' && flow.code === 'BONUS_CONDITION';
  const { refetch: refetchBonus } = bonus;
  // Refused for a bonus this screen did not know of (or whose turnover moved): ask for it again.
  useEffect(() => {
    if (refusedByBonus) refetchBonus();
  }, [refusedByBonus, refetchBonus]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy || !limits.data) return;
    const broken = validateWithdraw(amount, limits.data, locale, wallet?.wallet.amount);
    setError(broken);
    if (broken) return;
    setReviewing(true);
  };
  // Checked again at confirming: the balance may have moved (a push) while the review was open.
  const confirm = () => {
    if (busy || !limits.data) return;
    const broken = validateWithdraw(amount, limits.data, locale, wallet?.wallet.amount);
    if (broken) {
      setError(broken);
      setReviewing(false);
      return;
    }
    void run({ kind: 'withdraw', body: { amount: parseAmountInput(amount, locale)! } });
  };
  // "Withdraw all" (issue 40): the balance as the field reads it in this language, at most the maximum.
  const all = withdrawAllSatang(wallet?.wallet.amount, limits.data);
  const fillAll = () => {
    if (all === null) return;
    setAmount(writeAmount(all, locale));
    setError(null);
  };
  const backToForm = () => {
    dismiss();
    setReviewing(false);
    setTimeout(() => amountField.current?.focus(), 0);
  };
  const bank = wallet?.bankAccount;
  const bankName = bank ? (i18n.language === 'en' ? bank.bank.nameEN : bank.bank.nameTH) || bank.bankCode : '';
  // Messages name the bound formatted like every amount.
  const message = error ? t(error.key, { ...error.values, min: format(error.values?.min), max: format(error.values?.max), balance: format(error.values?.balance) }) : null;

  return (
    <Modal id={WITHDRAW_MODAL} title={t('withdraw.title')} onClose={() => onClose(attempted)}>
      {flow.status === 'succeeded' ? (
        <Receipt receipt={flow.receipt} note={resultText(t, flow.message)} onClose={() => onClose(true)} />
      ) : flow.status === 'failed' ? (
        <MoveAlert flow={flow} onOk={backToForm}>
          {cooling && holdUntil && (
            <p className="move-alert__detail" data-testid="withdraw-bank-hold">
              {t('withdraw.holdUntil', { time: formatDateTime(holdUntil) })}
            </p>
          )}
          {refusedByBonus && (
            <p className="move-alert__detail" data-testid="withdraw-bonus-refused">
              {bonus.lock && <>{t('bonusLock.refused', { remaining: format(bonus.lock.remaining) })} </>}
              <Link to="/user/bonus" onClick={() => onClose(attempted)}>
                {t('bonusLock.link')}
              </Link>
            </p>
          )}
        </MoveAlert>
      ) : reviewing ? (
        <WithdrawModalReview
          amount={format(parseAmountInput(amount, locale))}
          bank={bank}
          bankName={bankName}
          busy={busy}
          showBusy={showBusy}
          onBack={backToForm}
          onConfirm={confirm}
        />
      ) : (
        <form className="wallet-form" onSubmit={submit} noValidate aria-busy={busy || limits.isLoading}>
          <dl className="facts">
            <div>
              <dt>{t('withdraw.balance')}</dt>
              <dd data-testid="withdraw-balance">{format(wallet?.wallet.amount)}</dd>
            </div>
            {bank && (
              <div>
                <dt>{t('withdraw.toAccount')}</dt>
                <dd className="withdraw__to">
                  <BankMark code={bank.bankCode} size={28} /> {bankName} <span className="nowrap">{formatAccountNumber(bank.bankAccountNo)}</span>
                  <br />
                  {bank.bankAccountName}
                </dd>
              </div>
            )}
          </dl>
          {bonus.lock && <BonusLockNotice lock={bonus.lock} name={bonus.name} showTakesBack onLeave={() => onClose(attempted)} testId="withdraw-bonus-lock" />}
          {showLoading && <p aria-busy="true">{t('common.loading')}</p>}
          {limits.isError && <p className="form__error">{t('withdraw.limitsFailed')}</p>}
          <AmountField
            ref={amountField}
            label={t('withdraw.amount')}
            value={amount}
            onChange={setAmount}
            error={message}
            hint={limits.data ? t('withdraw.limits', { min: format(limits.data.withdrawMin), max: format(limits.data.withdrawMax) }) : undefined}
            testId="withdraw-amount"
          />
          <div className="wallet-form__actions">
            <button type="button" className="button button--secondary" onClick={fillAll} disabled={all === null} data-testid="withdraw-all">
              {t('withdraw.all')}
            </button>
            <button type="submit" className="button button--primary" disabled={busy || !limits.data} data-testid="withdraw-submit">
              {t('withdraw.next')}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
