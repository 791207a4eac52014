import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The live balance's socket (useWalletPush): whether the server can tell this page about money now, and how
 * many `wallet` events came. Pollers (the QR modal) poll only while it is not `live`.
 */
export type WalletSocketStatus = 'off' | 'connecting' | 'live' | 'down';

export interface LiveState {
  walletSocket: WalletSocketStatus;
  /** Counts `wallet` events (and joins, which may follow missed ones): a change means "look again". */
  walletPushes: number;
}

const initialState: LiveState = { walletSocket: 'off', walletPushes: 0 };

const liveSlice = createSlice({
  name: 'live',
  initialState,
  reducers: {
    walletSocketChanged(state, action: PayloadAction<WalletSocketStatus>) {
      state.walletSocket = action.payload;
    },
    walletPushed(state) {
      state.walletPushes += 1;
    },
  },
});

export const { walletSocketChanged, walletPushed } = liveSlice.actions;
export const liveReducer = liveSlice.reducer;

type WithLive = { live: LiveState };
/** True while the socket is joined: ledger changes arrive as events, so nothing needs to poll. */
export const selectWalletLive = (state: WithLive) => state.live.walletSocket === 'live';
export const selectWalletPushes = (state: WithLive) => state.live.walletPushes;
