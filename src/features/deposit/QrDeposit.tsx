import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { BankMark } from '../../components/BankMark';

import type { DepositBank } from './depositApi';
import { bankDisplayName } from './names';
import { QrPanel } from './QrPanel';
import type { QrBank } from './qrBanks';
import { qrToReplace, type QrDepositState } from './qrSlice';

interface QrDepositProps {
  banks: { bank: QrBank; entry: DepositBank }[];
  selected: QrBank;
  onSelect(bank: QrBank): void;
  state: QrDepositState;
  now: number;
  onCreate(bank: QrBank, amount: number): void;
  onCancel(bank: QrBank, qrcodeId: string): void;
  /** Leaving the deposit modal (for the contact page or the chat). */
  onLeave(): void;
}

/** The QR method: which bank or payment type to pay with, then that bank's QR panel. */
export function QrDeposit({ banks, selected, onSelect, state, now, onCreate, onCancel, onLeave }: QrDepositProps) {
  const { t, i18n } = useTranslation();
  const legendId = useId();
  const current = banks.find((b) => b.bank === selected) ?? banks[0];
  if (!current) return null;
  // One live QR per player: a create here cancels another bank's live QR, so the panel asks first.
  const other = qrToReplace(state, current.bank, now);
  const otherEntry = other ? banks.find((b) => b.bank === other.bank) : undefined;
  const replaces = other
    ? { bankName: otherEntry ? bankDisplayName(otherEntry.entry.bank, i18n.language) : other.bank, amount: other.qr.amount, expiresAt: other.qr.expiresAt }
    : null;
  return (
    <div className="deposit__section">
      {banks.length > 1 && (
        <div className="bank-choice" role="radiogroup" aria-labelledby={legendId}>
          <p id={legendId} className="deposit__label">
            {t('deposit.qr.choose')}
          </p>
          {banks.map(({ bank, entry }) => {
            const waiting = state[bank].machine.status === 'shown';
            return (
              <label key={bank} className="bank-choice__option">
                <input
                  type="radio"
                  name={`${legendId}-bank`}
                  value={bank}
                  checked={bank === current.bank}
                  onChange={() => onSelect(bank)}
                  data-testid={`qr-bank-${bank}`}
                />
                <BankMark code={bank} size={28} />
                <span>{bankDisplayName(entry.bank, i18n.language)}</span>
                {waiting && <span className="badge badge--auto">{t('deposit.qr.waiting')}</span>}
              </label>
            );
          })}
        </div>
      )}
      <QrPanel
        key={current.bank}
        bank={current.bank}
        bankName={bankDisplayName(current.entry.bank, i18n.language)}
        machine={state[current.bank].machine}
        now={now}
        onCreate={(amount) => onCreate(current.bank, amount)}
        onCancel={(id) => onCancel(current.bank, id)}
        replaces={replaces}
        onLeave={onLeave}
        payeeName={current.entry.bankAccountName}
      />
    </div>
  );
}
