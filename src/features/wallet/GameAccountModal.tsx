import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import { Modal } from '../../components/Modal';
import { Receipt } from '../../components/Receipt';
import { writeAmount } from '../../lib/amountInput';
import { copyText } from '../../lib/copy';
import { AmountField } from './AmountField';
import { walletErrorText } from './errorTexts';
import { selectLaunch } from './flowSlices';
import { useDelayedFlag, useFormatAmount, useMoneyMove } from './hooks';
import { gameLaunched, launchTargets, type LaunchTarget } from './launch';
import { isLaunching, launchingTarget, launchReset } from './launchSlice';
import { MoveAlert, resultText } from './MoveAlert';
import { parseAmountInput, providerCredit } from './money';
import { GAME_QUICK_AMOUNTS, readGameAmount, type RuleError } from './rules';
import { selectWallet, WALLET_CODE } from './selectors';
import { useGetGameAccountQuery, useResetGamePasswordMutation } from './walletEndpoints';

export const GAME_ACCOUNT_MODAL = 'game-account';

const TARGET_LABELS: Record<LaunchTarget, string> = {
  web: 'gameAccount.playWeb',
  android: 'gameAccount.playAndroid',
  ios: 'gameAccount.playIos',
};

interface Props {
  code: string;
  onClose: (changed: boolean) => void;
}

/**
 * Spec §2 game account: credentials, password reset, an amount to move from the wallet, 'transfer only', and
 * play buttons that transfer the amount first (when above 0) and then open the game in a new window. The
 * movement runs in the moveFlow slice and the launch in the gameLaunch slice; the view keeps the amount typed, its
 * rule error and whether the password shows.
 */
export function GameAccountModal({ code, onClose }: Props) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const format = useFormatAmount();
  const locale = useAppSelector(selectLocale);
  const slot = useAppSelector(selectWallet)?.slots.find((entry) => entry.code === code);
  const credentials = useGetGameAccountQuery(code);
  const [resetPassword, reset] = useResetGamePasswordMutation();
  const { flow, attempted, run, dismiss } = useMoneyMove();
  const launch = useAppSelector(selectLaunch);
  useEffect(() => () => void dispatch(launchReset()), [dispatch]);
  const [amount, setAmount] = useState('');
  const [error, setError] = useState<RuleError | null>(null);
  const [showPassword, setShowPassword] = useState(false);
  const [copied, setCopied] = useState<'done' | 'failed' | null>(null);
  const walletBalance = useAppSelector(selectWallet)?.wallet.amount;
  const amountField = useRef<HTMLInputElement>(null);
  const busy = isLaunching(launch) || flow.status === 'submitting';
  const launching = launchingTarget(launch);
  const launchError = launch.status === 'failed' ? launch.code : null;
  const fallbackLink = launch.status === 'blocked' ? launch.link : null;
  const showBusy = useDelayedFlag(busy);
  const showLoading = useDelayedFlag(credentials.isLoading);

  // Busy buttons are aria-disabled, not disabled: a disabled button would drop the keyboard focus mid-launch.
  const refuse = (broken: RuleError) => {
    setError(broken);
    amountField.current?.focus();
  };

  /** Spec §5: 'transfer only' needs an amount above 0, otherwise the amount field gets the focus. */
  const transferOnly = () => {
    if (busy) return;
    const entered = readGameAmount(amount, locale);
    if (entered.kind === 'none') return refuse({ key: 'gameAccount.amountNeeded' });
    if (entered.kind === 'invalid') return refuse(entered.error);
    setError(null);
    void run({ kind: 'transfer', body: { from: WALLET_CODE, to: code, amount: entered.amount } });
  };

  /** Spec §2: play transfers the amount first when above 0 (skipped at 0) and then opens the game. */
  const play = (target: LaunchTarget) => {
    if (busy || !slot) return;
    const entered = readGameAmount(amount, locale);
    if (entered.kind === 'invalid') return refuse(entered.error);
    setError(null);
    void dispatch(
      gameLaunched({
        slot,
        target,
        amount: entered.kind === 'amount' ? entered.amount : null,
        credentials: credentials.data,
        locale,
        openingText: t('gameAccount.opening'),
      }),
    );
  };

  /** Issue 40: the game's login details copied for the provider's own app (the password even while hidden). */
  const copy = (text: string) => {
    void copyText(text).then((ok) => setCopied(ok ? 'done' : 'failed'));
  };
  const typed = parseAmountInput(amount, locale);

  const backToForm = () => {
    dismiss();
    setTimeout(() => amountField.current?.focus(), 0);
  };

  const title = slot?.name ?? code;
  const data = reset.data ?? credentials.data;
  const formState = data?.event?.formState;
  const targets = slot ? launchTargets(slot) : [];

  return (
    <Modal id={GAME_ACCOUNT_MODAL} title={title} onClose={() => onClose(attempted)}>
      <div className="game-account" data-testid="game-account">
        {slot && (
          <dl className="facts">
            <div>
              <dt>{t('gameAccount.balance')}</dt>
              <dd data-testid="game-account-balance">{format(slot.amount)}</dd>
            </div>
            <div>
              <dt>{t('gameAccount.credit', { name: slot.name })}</dt>
              <dd>{format(providerCredit(slot.amount, slot.ftWalletSlot))}</dd>
            </div>
          </dl>
        )}

        <section aria-labelledby="game-credentials-title" aria-busy={credentials.isLoading}>
          <h3 id="game-credentials-title" className="section-title">
            {t('gameAccount.credentials')}
          </h3>
          {showLoading && <p>{t('common.loading')}</p>}
          {credentials.isError && <p className="form__error">{t('gameAccount.loadFailed')}</p>}
          {data && (
            <dl className="facts">
              <div>
                <dt>{t('gameAccount.username')}</dt>
                <dd className="facts__secret">
                  <span data-testid="game-username">{data.username}</span>
                  <button type="button" className="link-button" aria-label={t('gameAccount.copyUsername')} onClick={() => copy(data.username)}>
                    {t('gameAccount.copy')}
                  </button>
                </dd>
              </div>
              <div>
                <dt>{t('gameAccount.password')}</dt>
                <dd className="facts__secret">
                  <span data-testid="game-password">{showPassword ? data.password : '••••••••'}</span>
                  <button type="button" className="link-button" aria-pressed={showPassword} onClick={() => setShowPassword((shown) => !shown)}>
                    {showPassword ? t('gameAccount.hidePassword') : t('gameAccount.showPassword')}
                  </button>
                  <button type="button" className="link-button" aria-label={t('gameAccount.copyPassword')} onClick={() => copy(data.password)}>
                    {t('gameAccount.copy')}
                  </button>
                </dd>
              </div>
            </dl>
          )}
          <p className="muted" role="status" data-testid="game-copy-status">
            {copied === 'done' ? t('gameAccount.copied') : copied === 'failed' ? t('gameAccount.copyFailed') : ''}
          </p>
          {formState && (
            <div className="game-event" data-testid="game-event">
              <p className="game-event__title">{t('gameAccount.eventTitle')}</p>
              <dl className="facts">
                {Object.entries(formState).map(([field, value]) => (
                  <div key={field}>
                    <dt>{field === 'username' || field === 'password' ? t(`gameAccount.${field}`) : field}</dt>
                    <dd>{field === 'password' && !showPassword ? '••••••••' : String(value ?? '')}</dd>
                  </div>
                ))}
              </dl>
            </div>
          )}
          <button type="button" className="button" onClick={() => {
              if (!reset.isLoading && data) void resetPassword(code);
            }}
            aria-disabled={reset.isLoading || !data}
            data-testid="game-reset">
            {reset.isLoading ? t('gameAccount.resetting') : t('gameAccount.resetPassword')}
          </button>
          <p className="muted" role="status">
            {reset.isSuccess ? t('gameAccount.resetDone') : ''}
          </p>
        </section>

        {flow.status === 'succeeded' ? (
          <Receipt receipt={flow.receipt} note={resultText(t, flow.message)} onClose={() => onClose(true)} />
        ) : flow.status === 'failed' ? (
          <MoveAlert flow={flow} onOk={backToForm} />
        ) : (
          <section className="wallet-form" aria-labelledby="game-play-title" aria-busy={busy}>
            <h3 id="game-play-title" className="section-title">
              {t('gameAccount.playTitle')}
            </h3>
            <AmountField
              ref={amountField}
              label={t('gameAccount.amount')}
              value={amount}
              onChange={setAmount}
              error={error ? t(error.key, error.values) : null}
              hint={`${t('gameAccount.walletBalance', { amount: format(walletBalance) })} ${t('gameAccount.amountHint')}`}
              testId="game-amount"
            />
            <div className="quick-picks" role="group" aria-label={t('gameAccount.quickAmounts')}>
              {GAME_QUICK_AMOUNTS.map((value) => (
                <button
                  key={value}
                  type="button"
                  className="quick-pick"
                  aria-pressed={typed === value}
                  onClick={() => {
                    setAmount(writeAmount(value * 100, locale));
                    setError(null);
                  }}
                  data-testid={`game-quick-${value}`}
                >
                  {writeAmount(value * 100, locale)}
                </button>
              ))}
            </div>
            <div className="wallet-form__actions">
              <button type="button" className="button" onClick={transferOnly} aria-disabled={busy} data-testid="game-transfer-only">
                {t('gameAccount.transferOnly')}
              </button>
              {targets.map((target) => (
                <button
                  key={target}
                  type="button"
                  className="button button--primary"
                  onClick={() => play(target)}
                  aria-disabled={busy}
                  aria-busy={launching === target || undefined}
                  data-testid={`game-play-${target}`}
                >
                  {t(TARGET_LABELS[target])}
                </button>
              ))}
            </div>
            {targets.length === 0 && <p className="muted">{t('gameAccount.noClient')}</p>}
            <p className="muted" role="status">
              {showBusy ? t('gameAccount.opening') : ''}
            </p>
          </section>
        )}
        {launchError && (
          <p className="form__error" role="alert">
            {walletErrorText(launchError)}
          </p>
        )}
        {fallbackLink && (
          <p>
            {t('gameAccount.popupBlocked')}{' '}
            <a href={fallbackLink} target="_blank" rel="noopener noreferrer" data-testid="game-fallback-link">
              {t('gameAccount.openLink')}
            </a>
          </p>
        )}
      </div>
    </Modal>
  );
}
