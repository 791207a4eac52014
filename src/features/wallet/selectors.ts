import { createSelector } from '@reduxjs/toolkit';

import type { RootState } from '../../app/store';
import { walletApi, type GameCategory, type GameSlot, type WalletResponse } from '../../core/walletApi';
import { fromSatang, sumSatang } from './money';

const selectWalletResult = walletApi.endpoints.getWallet.select();

/** The last wallet answer (GET /api/wallet), or undefined before the first one. */
export const selectWallet = (state: RootState): WalletResponse | undefined => selectWalletResult(state).data;

/** The wallet plus every game account, in baht, summed in satang; null until the wallet has loaded. */
export function totalBalance(wallet: WalletResponse): number {
  return fromSatang(sumSatang([wallet.wallet?.amount, ...(wallet.slots ?? []).map((slot) => slot.amount)]));
}

export const selectTotalBalance = createSelector([selectWallet], (wallet) => (wallet ? totalBalance(wallet) : null));

/** The home screen's carousels, in order (spec §2: slot, sport and casino, lotto). */
export const GAME_CATEGORIES: readonly GameCategory[] = ['slot', 'sport', 'lotto'];

export type GameGroup = { category: GameCategory; games: GameSlot[] };

/** Game accounts grouped by category, in the server's order; empty categories are left out. */
export function groupGames(slots: readonly GameSlot[]): GameGroup[] {
  return GAME_CATEGORIES.map((category) => ({ category, games: slots.filter((slot) => slot.category === category) })).filter(
    (group) => group.games.length > 0,
  );
}

const NO_SLOTS: GameSlot[] = [];
const selectSlots = (state: RootState) => selectWallet(state)?.slots ?? NO_SLOTS;

export const selectGameGroups = createSelector([selectSlots], groupGames);

/**
 * The accounts money can move between: the wallet and the open game accounts. Never a seamless game (issue 42): it
 * plays from the wallet itself and the server refuses a transfer to or from it (SEAMLESS_GAME).
 */
export interface MoveAccount {
  code: string;
  name: string | null;
  amount: number;
}

export const WALLET_CODE = 'WALLET';

export const selectTransferAccounts = createSelector([selectWallet], (wallet): MoveAccount[] =>
  wallet
    ? [
        { code: WALLET_CODE, name: null, amount: wallet.wallet.amount },
        ...wallet.slots.filter((slot) => slot.isActive && !slot.seamless).map((slot) => ({ code: slot.code, name: slot.name, amount: slot.amount })),
      ]
    : [],
);
