import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';

import { walletErrorText } from './errorTexts';
import type { MoveFlow } from './moveFlow';

/** The success texts of spec §8: transferred, or wait for the transfer / withdrawal. */
const RESULT_KEYS: Record<string, string> = {
  TRANSFER_SUCCESS: 'wallet.result.transferred',
  TRANSFER_IN_PROGRESS: 'wallet.result.transferWait',
  WITHDRAW_IN_PROGRESS: 'wallet.result.withdrawWait',
  WITHDRAW_SUCCESS: 'wallet.result.withdrawn',
};

/** The success message of an answer (spec §8), shown on its receipt. */
export const resultText = (t: TFunction, message: string): string => t(RESULT_KEYS[message] ?? 'wallet.result.transferred');

interface Props {
  flow: Extract<MoveFlow, { status: 'failed' }>;
  /** OK: back to the form. */
  onOk: () => void;
  /** What the refusal means for this player, under the server's message (a withdrawal's bonus lock). */
  children?: ReactNode;
}

/**
 * Spec §8: failures show an alert titled with the generic error text plus the server's message (a success shows
 * its receipt instead). It takes focus so a screen reader reads it.
 */
export function MoveAlert({ flow, onOk, children }: Props) {
  const { t } = useTranslation();
  const ok = useRef<HTMLButtonElement>(null);
  useEffect(() => ok.current?.focus(), []);
  return (
    <div className="move-alert move-alert--error" role="alert" data-testid="move-alert">
      <p className="move-alert__title">{t('wallet.result.errorTitle')}</p>
      <p className="move-alert__message">{walletErrorText(flow.code)}</p>
      {children}
      <button ref={ok} type="button" className="button button--primary" onClick={onOk}>
        {t('wallet.ok')}
      </button>
    </div>
  );
}
