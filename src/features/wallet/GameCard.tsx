import { useTranslation } from 'react-i18next';

import type { GameSlot } from '../../app/walletApi';
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
 */
export function GameCard({ game, onView, onRefused }: Props) {
  const { t } = useTranslation();
  const format = useFormatAmount();
  const [activate, { isLoading }] = useActivateGameAccountMutation();
  const showBusy = useDelayedFlag(isLoading);
  return (
    <article className={`game-card${game.isActive ? ' game-card--active' : ''}`} style={{ backgroundImage: `url("${game.background}")` }} data-testid={`game-card-${game.code}`}>
      <img className="game-card__logo" src={game.logo} alt="" width="48" height="48" loading="lazy" />
      <h3 className="game-card__name">{game.name}</h3>
      {game.isActive ? (
        <>
          <p className="game-card__amount" data-testid={`game-amount-${game.code}`}>
            {format(game.amount)}
          </p>
          <p className="game-card__credit">{`${game.name} ${format(providerCredit(game.amount, game.ftWalletSlot))}`}</p>
          <button type="button" className="game-card__action" onClick={() => (onRefused ? onRefused() : onView(game.code))} aria-haspopup="dialog" aria-label={t('home.card.viewDataOf', { name: game.name })}>
            {t('home.card.viewData')}
          </button>
        </>
      ) : (
        <button
          type="button"
          className="game-card__action"
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
