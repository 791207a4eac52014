import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { errorText } from '../../app/notify';
import type { MoveFlow } from './moveFlow';

/** The success texts of spec §8: transferred, or wait for the transfer / withdrawal. */
const RESULT_KEYS: Record<string, string> = {
  TRANSFER_SUCCESS: 'wallet.result.transferred',
  TRANSFER_IN_PROGRESS: 'wallet.result.transferWait',
  WITHDRAW_IN_PROGRESS: 'wallet.result.withdrawWait',
  WITHDRAW_SUCCESS: 'wallet.result.withdrawn',
};

interface Props {
  flow: Extract<MoveFlow, { status: 'succeeded' | 'failed' }>;
  /** OK on a success (the modal closes), or on a failure (back to the form). */
  onOk: () => void;
}

/**
 * Spec §8: failures show an alert titled with the generic error text plus the server's message; successes a
 * success title plus a transferred or wait-for-transfer message. It takes focus so a screen reader reads it.
 */
export function MoveAlert({ flow, onOk }: Props) {
  const { t } = useTranslation();
  const ok = useRef<HTMLButtonElement>(null);
  useEffect(() => ok.current?.focus(), []);
  const success = flow.status === 'succeeded';
  return (
    <div className={`move-alert move-alert--${success ? 'success' : 'error'}`} role="alert" data-testid="move-alert">
      <p className="move-alert__title">{success ? t('wallet.result.successTitle') : t('wallet.result.errorTitle')}</p>
      <p className="move-alert__message">
        {success ? t(RESULT_KEYS[flow.message] ?? 'wallet.result.transferred') : errorText(flow.code)}
      </p>
      <button ref={ok} type="button" className="button button--primary" onClick={onOk}>
        {t('wallet.ok')}
      </button>
    </div>
  );
}
