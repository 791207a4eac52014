import { useTranslation } from 'react-i18next';

import type { GameSlot } from '../../core/walletApi';
import { useDelayedFlag, useFormatAmount } from './hooks';
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
