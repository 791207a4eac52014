import { useTranslation } from 'react-i18next';

import { BankMark } from '../../components/BankMark';
import { BankModeNote } from './ConfiguredNotes';
import { accountDigits, groupAccountNumber } from './bankRules';
import { copiesDetails } from './copyRules';
import type { DepositBank } from './depositApi';
import './bankTransfer.css';
import { bankDisplayName } from './names';

export interface CopyOutcome {
  bankCode: string;
  ok: boolean;
  text: string;
}

interface BankTransferProps {
  banks: DepositBank[];
  copy: CopyOutcome | null;
  onCopy(entry: DepositBank): void;
  /** The slip upload's id: with more than one account a link above them leads there (issue 40 item 9). */
  slipId?: string;
}

/** Past this many accounts the slip upload is out of sight on a phone, so a link to it comes first. */
const SLIP_LINK_AFTER = 1;

/**
 * Spec §2 bank transfer: each account to pay into with its bank mark, a copy action (KBANK auto deposit copies
 * the account details: bank, number and name) and the texts of spec §1.
 */
export function BankTransfer({ banks, copy, onCopy, slipId }: BankTransferProps) {
  const { t, i18n } = useTranslation();
  const toSlip = () => {
    const target = slipId ? document.getElementById(slipId) : null;
    target?.scrollIntoView({ block: 'start' });
    target?.focus({ preventScroll: true });
  };
  return (
    <div className="deposit__section">
      <p className="deposit__note">{t('deposit.bank.intro')}</p>
      {slipId && banks.length > SLIP_LINK_AFTER && (
        <button type="button" className="button button--link bank-list__to-slip" onClick={toSlip} data-testid="bank-to-slip">
          {t('deposit.slip.jump')}
        </button>
      )}
      <p className="deposit__note deposit__note--strong">{t('deposit.recommended')}</p>
      <ul className="bank-list">
        {banks.map((entry) => {
          const auto = entry.mode === 'AUTO';
          const result = copy && copy.bankCode === entry.bankCode ? copy : null;
          const name = bankDisplayName(entry.bank, i18n.language);
          return (
            <li key={entry.bankCode} className="bank-card" data-testid={`bank-${entry.bankCode}`}>
              <div className="bank-card__head">
                <BankMark code={entry.bankCode} />
                <h3 className="bank-card__name">{name}</h3>
                <span className={auto ? 'badge badge--auto' : 'badge'}>{auto ? t('deposit.bank.auto') : t('deposit.bank.manual')}</span>
              </div>
              <dl className="bank-card__details">
                <div>
                  <dt>{t('deposit.bank.accountName')}</dt>
                  <dd>{entry.bankAccountName}</dd>
                </div>
                <div>
                  <dt>{t('deposit.bank.accountNo')}</dt>
                  <dd className="bank-card__number" data-testid="bank-account-no">
                    {groupAccountNumber(entry.bankAccountNo)}
                    {entry.currency ? ` (${entry.currency})` : ''}
                  </dd>
                </div>
              </dl>
              <button
                type="button"
                className="button bank-card__copy"
                onClick={() => onCopy(entry)}
                aria-label={
                  copiesDetails(entry)
                    ? t('deposit.bank.copyDetailsLabel', { bank: name })
                    : t('deposit.bank.copyLabel', { bank: name, number: accountDigits(entry.bankAccountNo) })
                }
                data-testid="bank-copy"
              >
                {copiesDetails(entry) ? t('deposit.bank.copyDetails') : t('deposit.bank.copy')}
              </button>
              <p role="status" className={result && !result.ok ? 'field__error' : 'bank-card__copied'} data-testid="bank-copy-result">
                {result ? (result.ok ? t('deposit.bank.copied', { text: result.text }) : t('deposit.bank.copyFailed')) : ''}
              </p>
              <BankModeNote auto={auto} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}
