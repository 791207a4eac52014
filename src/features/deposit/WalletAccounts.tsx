import { useTranslation } from 'react-i18next';

import { CreditTimeNote } from './ConfiguredNotes';
import type { DepositWallet } from './depositApi';
import { GiftLinkForm } from './GiftLinkForm';

/** The mobile-wallet method: the gift-link form for a gift entry, the wallet to pay for an AUTO one. */
export function WalletAccounts({ wallets }: { wallets: DepositWallet[] }) {
  const { t } = useTranslation();
  const gift = wallets.some((w) => w.mode === 'gift');
  const auto = wallets.filter((w) => w.mode !== 'gift');
  return (
    <div className="deposit__section">
      {auto.map((w) => (
        <div key={w.walletAccountName} className="bank-card">
          <p className="deposit__label">{t('deposit.wallet.payTo')}</p>
          <p className="bank-card__number">{w.walletAccountName}</p>
          <CreditTimeNote />
        </div>
      ))}
      {gift && (
        <>
          <p className="deposit__note">{t('deposit.gift.intro')}</p>
          <GiftLinkForm />
        </>
      )}
    </div>
  );
}
