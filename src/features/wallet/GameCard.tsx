import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { selectLocale } from '../../core/prefs';
import type { GameSlot } from '../../core/walletApi';
import type { RootState } from '../../app/store';
import { selectLaunch } from './flowSlices';
import { useDelayedFlag, useFormatAmount } from './hooks';
import { seamlessLaunched } from './launch';
import { isLaunching } from './launchSlice';
import { providerCredit } from './money';
import { useActivateGameAccountMutation } from './walletEndpoints';

interface Props {
  game: GameSlot;
  onView: (code: string) => void;
  /** Set while play is refused (a time-out or self-exclusion): both buttons call it instead of acting. */
  onRefused?: () => void;
}

/**
 * Spec §2 card: logo and background; an open account shows its amount, the name with amount x ftWalletSlot
 * and 'view data'; otherwise 'open account' (activation; a failure is swallowed and the loader hidden).
 * Issue 12: open and not-yet-open accounts look clearly different (a badge that says which, a solid card with a
 * solid button against a dimmed, dashed card with an outlined one), and the amount appears once: the name with
 * the provider credit is its own line only where the factor makes it a different number.
 */
export function GameCard({ game, onView, onRefused }: Props) {
  if (game.seamless) return <SeamlessGameCard game={game} onRefused={onRefused} />;
  return <TransferGameCard game={game} onView={onView} onRefused={onRefused} />;
}

function TransferGameCard({ game, onView, onRefused }: Props) {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const [activate, { isLoading }] = useActivateGameAccountMutation();
  const showBusy = useDelayedFlag(isLoading);
  const open = game.isActive;
  const credit = providerCredit(game.amount, game.ftWalletSlot);
  const creditDiffers = credit !== null && game.ftWalletSlot !== 1;
  const picture = `url("${game.background}")`;
  return (
    <article
      className={`game-card game-card--${open ? 'open' : 'closed'}`}
      style={{ backgroundImage: open ? picture : `linear-gradient(rgba(32, 38, 36, 0.82), rgba(32, 38, 36, 0.82)), ${picture}` }}
      data-testid={`game-card-${game.code}`}
    >
      <p className="game-card__badge" data-testid={`game-state-${game.code}`}>
        <span aria-hidden="true">{open ? '✓ ' : '+ '}</span>
        {open ? t('home.card.open') : t('home.card.notOpen')}
      </p>
      <img className="game-card__logo" src={game.logo} alt="" width="48" height="48" loading="lazy" />
      <h3 className="game-card__name">{game.name}</h3>
      {open ? (
        <>
          <p className="game-card__amount" data-testid={`game-amount-${game.code}`}>
            {format(game.amount)}
          </p>
          {creditDiffers && <p className="game-card__credit">{`${game.name} ${format(credit)}`}</p>}
          <button type="button" className="game-card__action" onClick={() => (onRefused ? onRefused() : onView(game.code))} aria-haspopup="dialog" aria-label={t('home.card.viewDataOf', { name: game.name })}>
            {t('home.card.viewData')}
          </button>
        </>
      ) : (
        <button
          type="button"
          className="game-card__action game-card__action--outline"
          onClick={() => (onRefused ? onRefused() : void activate(game.code))}
          disabled={isLoading}
          aria-busy={isLoading}
          aria-label={t('home.card.openAccountOf', { name: game.name })}
        >
          {showBusy ? t('home.card.opening') : t('home.card.openAccount')}
        </button>
      )}
    </article>
  );
}

/** The id of a seamless card's Play button: the launch notice gives the focus back to it (SeamlessLaunchNotice). */
export const seamlessPlayId = (code: string) => `seamless-play-${code}`;

/** What a seamless card's Play shows of the launch: under way for this game (busy from the tap on), or not. */
const selectLaunchingGame = (state: RootState, code: string) => {
  const launch = selectLaunch(state);
  return isLaunching(launch) && launch.status !== 'idle' && launch.game === code;
};

/**
 * Issue 42: a seamless game plays from the wallet itself, so its card has no account, no balance and nothing to
 * move: it says so where a balance would be, and Play opens the game (seamlessLaunched: a game session from
 * GET /api/seamless/launch/{code}, in a window opened in the tap). The button is busy from the tap on (issue 40
 * item 12) and says "Opening…" after the loading delay; a refusal or a refused window is the home's notice.
 */
function SeamlessGameCard({ game, onRefused }: Omit<Props, 'onView'>) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
  const launching = useAppSelector((state) => selectLaunchingGame(state, game.code));
  const anyLaunch = useAppSelector((state) => isLaunching(selectLaunch(state)));
  const showBusy = useDelayedFlag(launching);
  const play = () => {
    if (onRefused) return onRefused();
    if (anyLaunch) return;
    void dispatch(seamlessLaunched({ slot: game, locale, openingText: t('gameAccount.opening') }));
  };
  return (
    <article className="game-card game-card--seamless" style={{ backgroundImage: `url("${game.background}")` }} data-testid={`game-card-${game.code}`}>
      <p className="game-card__badge" data-testid={`game-state-${game.code}`}>
        <span aria-hidden="true">{'↻ '}</span>
        {t('home.card.seamless')}
      </p>
      <img className="game-card__logo" src={game.logo} alt="" width="48" height="48" loading="lazy" />
      <h3 className="game-card__name">{game.name}</h3>
      <button
        type="button"
        id={seamlessPlayId(game.code)}
        className="game-card__action"
        onClick={play}
        aria-disabled={anyLaunch || undefined}
        aria-busy={launching || undefined}
        aria-label={t('home.card.playOf', { name: game.name })}
        data-testid={`game-play-${game.code}`}
      >
        {showBusy ? t('home.card.opening') : t('home.card.play')}
      </button>
    </article>
  );
}
