import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { QrBank } from './qrBanks';

/**
 * The Thai QR Payment standard's frame (issue 40 item 9): a player trusts a QR that looks like the ones at every
 * Thai counter, headed THAI QR PAYMENT with the PromptPay mark and the payee's name under it, and can check whom
 * they pay before the bank app does. WW's TrueMoney QR is not a Thai QR Payment, so it has the payee line only.
 */
export function isThaiQrPayment(bank: QrBank): boolean {
  return bank !== 'WW';
}

export function QrFrame({ bank, payeeName, children }: { bank: QrBank; payeeName?: string; children: ReactNode }) {
  const { t } = useTranslation();
  const thaiQr = isThaiQrPayment(bank);
  return (
    <figure className={thaiQr ? 'qr-frame qr-frame--thai' : 'qr-frame'} data-testid="qr-frame">
      {thaiQr && (
        <div className="qr-frame__head" aria-hidden="true">
          <span className="qr-frame__title">THAI QR PAYMENT</span>
          <span className="qr-frame__promptpay">PromptPay</span>
        </div>
      )}
      <div className="qr-frame__body">{children}</div>
      {payeeName && (
        <figcaption className="qr-frame__payee" data-testid="qr-payee">
          {t('deposit.qr.payee', { name: payeeName })}
        </figcaption>
      )}
    </figure>
  );
}
