import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { useGetDepositLookupQuery, useGetSlipLookupQuery } from './depositApi';

/**
 * Notes that state a configured value (issue 12): read from the lookups the deposit modal already loads instead of
 * being fixed in the translation. Until a lookup answers, the product's defaults are named.
 */
export const DEFAULT_CREDIT_MINUTES = 1;
export const DEFAULT_SLIP_WINDOW_MINUTES = 60;

/** About how long an automatic deposit takes to reach the wallet (the deposit setting's creditMinutes). */
export function useCreditMinutes(): number {
  return useGetDepositLookupQuery(useAppSelector(selectLocale), { selectFromResult: ({ data }) => ({ minutes: data?.creditMinutes }) }).minutes ?? DEFAULT_CREDIT_MINUTES;
}

/** How long after the transfer a slip may be uploaded (the slip lookup's uploadWindowMinutes). */
export function useSlipWindowMinutes(): number {
  return useGetSlipLookupQuery(undefined, { selectFromResult: ({ data }) => ({ minutes: data?.uploadWindowMinutes }) }).minutes ?? DEFAULT_SLIP_WINDOW_MINUTES;
}

/** "Money reaches your wallet in about {n} minutes." */
export function CreditTimeNote() {
  const { t } = useTranslation();
  return (
    <p className="deposit__note" data-testid="credit-time">
      {t('deposit.creditTime', { count: useCreditMinutes() })}
    </p>
  );
}

/** A bank account's note: credited automatically in about {n} minutes, or upload the slip within {n} minutes. */
export function BankModeNote({ auto }: { auto: boolean }) {
  const { t } = useTranslation();
  const credit = useCreditMinutes();
  const window = useSlipWindowMinutes();
  return (
    <p className="deposit__note" data-testid="bank-mode-note">
      {auto ? t('deposit.bank.autoHint', { count: credit }) : t('deposit.bank.manualHint', { count: window })}
    </p>
  );
}

/** "Upload the slip within {n} minutes of the transfer." */
export function SlipWindowNote() {
  const { t } = useTranslation();
  return (
    <p className="deposit__note" data-testid="slip-window">
      {t('deposit.slip.window', { count: useSlipWindowMinutes() })}
    </p>
  );
}
