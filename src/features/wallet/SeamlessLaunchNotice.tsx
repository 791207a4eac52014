import { memo, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { shallowEqual } from 'react-redux';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import type { RootState } from '../../app/store';
import { walletErrorText } from './errorTexts';
import { selectLaunch } from './flowSlices';
import { seamlessPlayId } from './GameCard';
import { launchReset } from './launchSlice';
import { selectWallet } from './selectors';

/** The seamless launch that ended in a refusal or a refused window, with its game's name; null otherwise. */
export function selectSeamlessLaunchOutcome(state: RootState): { code: string; name: string; failure: string | null; link: string | null } | null {
  const launch = selectLaunch(state);
  if (launch.status !== 'failed' && launch.status !== 'blocked') return null;
  // The game-account modal shows its own launches (transfer games); this notice only a seamless card's.
  const slot = selectWallet(state)?.slots.find((entry) => entry.code === launch.game);
  if (!slot?.seamless) return null;
  return {
    code: slot.code,
    name: slot.name,
    failure: launch.status === 'failed' ? launch.code : null,
    link: launch.status === 'blocked' ? launch.link : null,
  };
}

/**
 * Issue 42: what became of a seamless card's Play, on the home (a card is too narrow to say it): a refusal as an
 * alert in the player's language (403 SELF_EXCLUDED / PLAY_TIMEOUT / SESSION_LIMIT, 404 NO_GAME, 503 SEAMLESS_OFF,
 * a network failure), or, when the browser refused the window, the game's link to open it from (as the game-account
 * modal offers it). It takes the focus when it appears, so keyboard and screen-reader users are told; OK closes it
 * and gives the focus back to the card's Play button.
 */
export const SeamlessLaunchNotice = memo(function SeamlessLaunchNotice() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  // A new object each time: compared field by field, so other actions do not draw it again.
  const outcome = useAppSelector(selectSeamlessLaunchOutcome, shallowEqual);
  const { code = null, name = '', failure = null, link = null } = outcome ?? {};
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // SESSION_LIMIT: the base query's dialog (its only way on is logging out) has the focus, and keeps it.
    if (code && failure !== 'SESSION_LIMIT') box.current?.focus();
  }, [code, failure, link]);
  if (!code) return null;
  const dismiss = () => {
    dispatch(launchReset());
    document.getElementById(seamlessPlayId(code))?.focus();
  };
  return (
    <div ref={box} tabIndex={-1} className={failure ? 'seamless-notice seamless-notice--error' : 'seamless-notice'} role={failure ? 'alert' : 'status'} data-testid="seamless-launch-notice">
      {failure ? (
        <p className="form__error">
          {t('home.seamless.failed', { name })} {walletErrorText(failure)}
        </p>
      ) : (
        <p>
          {t('home.seamless.blocked', { name })}{' '}
          <a href={link ?? undefined} target="_blank" rel="noopener noreferrer" data-testid="seamless-fallback-link">
            {t('home.seamless.openLink', { name })}
          </a>
        </p>
      )}
      <button type="button" className="button button--secondary" onClick={dismiss} data-testid="seamless-notice-ok">
        {t('wallet.ok')}
      </button>
    </div>
  );
});
