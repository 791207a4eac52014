import { useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { Modal } from '../../components/Modal';
import { Receipt } from '../../components/Receipt';
import { writeAmount } from '../../lib/amountInput';
import { AmountField } from './AmountField';
import { useDelayedFlag, useFormatAmount, useMoneyMove } from './hooks';
import { MoveAlert, resultText } from './MoveAlert';
import { parseAmountInput, toSatang } from './money';
import { TRANSFER_MINIMUM, validateTransfer, type RuleError } from './rules';
import { selectTransferAccounts, WALLET_CODE } from './selectors';

export const TRANSFER_MODAL = 'transfer';

interface Props {
  /** changed: a transfer was attempted, so the wallet must reload (spec §4). */
  onClose: (changed: boolean) => void;
  initialFrom?: string;
  initialTo?: string;
}

/**
 * Spec §2 transfer between accounts: from/to among the wallet and the open game accounts. 'All' from the wallet
 * to a game moves the whole wallet (POST /api/wallet/transferAll: the server reads the balance, so a deposit or
 * a game win landing meanwhile is not left behind); from a game it fills in that game's balance.
 */
export function TransferModal({ onClose, initialFrom = WALLET_CODE, initialTo = '' }: Props) {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const locale = useAppSelector(selectLocale);
  const accounts = useAppSelector(selectTransferAccounts);
  const { flow, attempted, run, dismiss } = useMoneyMove();
  const [from, setFrom] = useState(initialFrom);
  const [to, setTo] = useState(initialTo);
  const [amount, setAmount] = useState('');
  /** The amount shown is the wallet's whole balance, put there by 'All': send transferAll while it is untouched. */
  const [wholeWallet, setWholeWallet] = useState(false);
  const [error, setError] = useState<RuleError | null>(null);
  const busy = flow.status === 'submitting';
  const showBusy = useDelayedFlag(busy);
  const fromId = useId();
  const amountField = useRef<HTMLInputElement>(null);
  const backToForm = () => {
    dismiss();
    setTimeout(() => amountField.current?.focus(), 0);
  };
  const toId = useId();
  const allOfWallet = wholeWallet && from === WALLET_CODE;

  const accountName = (code: string, name: string | null) => (code === WALLET_CODE ? t('wallet.walletAccount') : (name ?? code));
  const options = accounts.map((account) => (
    <option key={account.code} value={account.code}>
      {`${accountName(account.code, account.name)} (${format(account.amount)})`}
    </option>
  ));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const broken = validateTransfer({ from, to, amount }, locale);
    setError(broken);
    if (broken) return;
    void run(allOfWallet ? { kind: 'transferAll', body: { to } } : { kind: 'transfer', body: { from, to, amount: parseAmountInput(amount, locale)! } });
  };

  const fillAll = () => {
    const source = accounts.find((account) => account.code === from);
    const satang = toSatang(source?.amount);
    if (!source || satang === null) return;
    // Written as the field reads it in this language: a Lao 1030.5 is 1.030,50, never 1030.5 (read as 10305).
    setAmount(writeAmount(satang, locale));
    setWholeWallet(from === WALLET_CODE);
  };
  // Issue 40 item 10: digits and this language's two marks only (AmountField already drops letters and signs).
  const typeAmount = (value: string) => {
    setAmount(value.replace(/\s/g, ''));
    setWholeWallet(false);
  };

  return (
    <Modal id={TRANSFER_MODAL} title={t('transfer.title')} onClose={() => onClose(attempted)}>
      {flow.status === 'succeeded' ? (
        <Receipt receipt={flow.receipt} note={resultText(t, flow.message)} onClose={() => onClose(true)} />
      ) : flow.status === 'failed' ? (
        <MoveAlert flow={flow} onOk={backToForm} />
      ) : (
        <form className="wallet-form" onSubmit={submit} noValidate aria-busy={busy}>
          <div className="field">
            <label htmlFor={fromId}>{t('transfer.from')}</label>
            <select id={fromId} value={from} onChange={(event) => setFrom(event.target.value)} data-testid="transfer-from">
              <option value="">{t('transfer.choose')}</option>
              {options}
            </select>
          </div>
          <div className="field">
            <label htmlFor={toId}>{t('transfer.to')}</label>
            <select id={toId} value={to} onChange={(event) => setTo(event.target.value)} data-testid="transfer-to">
              <option value="">{t('transfer.choose')}</option>
              {options}
            </select>
          </div>
          <AmountField
            ref={amountField}
            label={t('transfer.amount')}
            value={amount}
            onChange={typeAmount}
            error={error ? t(error.key, error.values) : null}
            hint={allOfWallet ? t('transfer.wholeWalletHint') : t('transfer.minimumHint', { min: writeAmount(TRANSFER_MINIMUM * 100, locale) })}
            testId="transfer-amount"
          />
          <div className="wallet-form__actions">
            <button type="button" className="button button--secondary" onClick={fillAll} disabled={!from} aria-pressed={allOfWallet} data-testid="transfer-all">
              {t('transfer.all')}
            </button>
            <button type="submit" className="button button--primary" disabled={busy} data-testid="transfer-submit">
              {showBusy ? t('transfer.submitting') : t('transfer.submit')}
            </button>
          </div>
        </form>
      )}
    </Modal>
  );
}
