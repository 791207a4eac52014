import { useEffect } from 'react';

import { api } from '../core/api';
import { useAppDispatch, useAppSelector, useAppStore } from '../core/hooks';
import { walletPushed, walletSocketChanged } from '../core/liveSlice';
import { nextTask } from './nextTask';
import type { AppDispatch } from './store';
import { useGetWalletQuery } from '../core/walletApi';
import { loadSocketIo, openWalletSocket, type IoFactory } from './walletSocket';
import { i18n } from '../core/i18n';
import { showToast, type Toast } from '../core/notify';
import { formatAmount } from '../lib/format';
import { selectLocale } from '../core/prefs';
import type { Locale } from '../lib/locale';

/** GET /api/chat/config: the rooms' prefix (null while the operator has the chat off: then no socket, and pollers poll). */
const liveApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLiveConfig: build.query<{ PREFIX: string | null }, void>({
      query: () => '/api/chat/config',
      extraOptions: { silent: true },
    }),
  }),
});

/** What a ledger change makes stale: the wallet, the statement, and a QR that may now be paid. */
export const WALLET_PUSH_TAGS = ['Wallet', 'Statement', 'Qr'] as const;

/**
 * The toast of a payment sent to or decided by staff (`wallet {reason: 'review', review}`, issue 40): the player is
 * told wherever they are, with the amount and the statement line's reference. Null for anything else.
 */
export function reviewPushToast(reason: string | undefined, data: unknown, locale: Locale, t: (key: string, options?: Record<string, unknown>) => string): Toast | null {
  if (reason !== 'review' || !data || typeof data !== 'object') return null;
  const review = (data as { review?: { status?: unknown; kind?: unknown; amount?: unknown; ref?: unknown } }).review;
  if (!review || !['OPEN', 'APPROVED', 'REJECTED'].includes(review.status as string)) return null;
  const status = review.status as 'OPEN' | 'APPROVED' | 'REJECTED';
  const message = t(`deposit.qr.reviewNotice.${status}`, { amount: formatAmount(review.amount, locale), ref: typeof review.ref === 'string' ? review.ref : '' });
  return { message, variant: status === 'APPROVED' ? 'success' : status === 'REJECTED' ? 'error' : 'info' };
}

export interface WalletPushDeps {
  load: () => Promise<IoFactory>;
  /** Off under jest unless a test turns it on: other suites count the sockets they open. */
  enabled: boolean;
}
export const walletPushDeps: WalletPushDeps = { load: loadSocketIo, enabled: process.env.NODE_ENV !== 'test' };

/** The rooms' prefix, requested before the layout renders (its `prefetch`, app/router.tsx) when live balance is on. */
export function prefetchLiveConfig(dispatch: AppDispatch): void {
  if (walletPushDeps.enabled) dispatch(liveApi.util.prefetch('getLiveConfig', undefined, {}));
}

/**
 * Live balance (docs/client.md): in the user area, a socket joined to the player's room; every `wallet` event
 * (a committed ledger change) refetches the wallet and the statement and bumps `live.walletPushes`, which an
 * open QR modal answers with a state check. `live.walletSocket` says whether pollers may rest.
 */
export function useWalletPush(): void {
  const dispatch = useAppDispatch();
  const store = useAppStore();
  const token = useAppSelector((s) => s.session.token);
  const enabled = walletPushDeps.enabled && Boolean(token);
  // The player's id only: the layout is not drawn again when the wallet reloads (every push, the join).
  const { playerId } = useGetWalletQuery(undefined, { skip: !enabled, selectFromResult: ({ data }) => ({ playerId: data?.profile._id }) });
  const { data: config } = liveApi.useGetLiveConfigQuery(undefined, { skip: !enabled });
  const prefix = config?.PREFIX;

  useEffect(() => {
    if (!enabled || !playerId || !prefix) return;
    let close: (() => void) | null = null;
    let cancelled = false;
    const open = (io: IoFactory) => {
      if (cancelled) return;
      close = openWalletSocket({
        io,
        url: window.location.origin,
        room: `${prefix}-${playerId}`,
        token: () => store.getState().session.token,
        onStatus: (status) => dispatch(walletSocketChanged(status)),
        onChange: (reason, data) => {
          dispatch(api.util.invalidateTags([...WALLET_PUSH_TAGS]));
          dispatch(walletPushed());
          const toast = reviewPushToast(reason, data, selectLocale(store.getState()), (key, options) => i18n.t(key, options) as string);
          if (toast) showToast(toast);
        },
      });
    };
    void walletPushDeps.load().then(
      // Opened in a task after the library's: its first load evaluates the chunk and settles the promise in one task,
      // and opening the socket there too made one long task of both (Lighthouse's trace of /user/home).
      (io) => nextTask().then(() => open(io)),
      // Without the library (a failed chunk load) pollers keep polling.
      () => dispatch(walletSocketChanged('down')),
    );
    return () => {
      cancelled = true;
      close?.();
      dispatch(walletSocketChanged('off'));
    };
  }, [enabled, playerId, prefix, dispatch, store]);
}
