import { createSlice, type PayloadAction, type UnknownAction } from '@reduxjs/toolkit';

import type { Locale } from '../lib/locale';
import { DEFAULT_LOCALE } from './i18n';

/**
 * The player's device preferences, persisted to localStorage (spec §3 keys in brackets):
 * locale [locale], inviteCode [code], guestId [guest-id], lastSync [last_sync], agreementAccepted
 * [remember-agreement]. Events are named for what happened, not for the field they set.
 */
export interface PrefsState {
  locale: Locale;
  inviteCode: string | null;
  guestId: string | null;
  lastSync: string | null;
  agreementAccepted: boolean;
}

export const initialPrefs: PrefsState = {
  locale: DEFAULT_LOCALE,
  inviteCode: null,
  guestId: null,
  lastSync: null,
  agreementAccepted: false,
};

/**
 * The wallet endpoints whose success means the balance on screen was just read (app/walletApi.ts): GET /api/wallet
 * and refresh-all. Matched by name, as RTK Query names them in its actions, so this first-route slice does not pull
 * the wallet endpoints out of their lazy chunk (prefs.test.ts checks the names against walletApi's own matchers).
 */
export const WALLET_QUERY_ENDPOINT = 'getWallet';
export const REFRESH_ALL_ENDPOINT = 'refreshGameBalances';

interface FulfilledRequest extends UnknownAction {
  meta: { fulfilledTimeStamp: number; arg: { endpointName: string } };
}

/** A successful wallet load or refresh-all: RTK Query's fulfilled action of one of the two endpoints. */
function isWalletRead(action: UnknownAction): action is FulfilledRequest {
  const meta = (action as Partial<FulfilledRequest>).meta;
  const endpoint = meta?.arg?.endpointName;
  return (
    ((action.type === 'api/executeQuery/fulfilled' && endpoint === WALLET_QUERY_ENDPOINT) ||
      (action.type === 'api/executeMutation/fulfilled' && endpoint === REFRESH_ALL_ENDPOINT)) &&
    typeof meta?.fulfilledTimeStamp === 'number'
  );
}

const prefsSlice = createSlice({
  name: 'prefs',
  initialState: initialPrefs,
  reducers: {
    localeChosen(state, action: PayloadAction<Locale>) {
      state.locale = action.payload;
    },
    inviteCodeReceived(state, action: PayloadAction<string>) {
      state.inviteCode = action.payload;
    },
    /** A guest id is generated once per device and then kept. */
    guestIdAssigned(state, action: PayloadAction<string>) {
      if (state.guestId === null) state.guestId = action.payload;
    },
    /** The server refused this guest id (its key changed): the next chat gets a new one. */
    guestIdRevoked(state, action: PayloadAction<string>) {
      if (state.guestId === action.payload) state.guestId = null;
    },
    walletSynced(state, action: PayloadAction<string>) {
      state.lastSync = action.payload;
    },
    agreementAccepted(state) {
      state.agreementAccepted = true;
    },
  },
  extraReducers: (builder) => {
    // last_sync is when the balance was last read from the server: every successful wallet load or refresh-all.
    builder.addMatcher(isWalletRead, (state, action) => {
      state.lastSync = new Date(action.meta.fulfilledTimeStamp).toISOString();
    });
  },
  selectors: {
    selectLocale: (state) => state.locale,
    selectInviteCode: (state) => state.inviteCode,
    selectGuestId: (state) => state.guestId,
    selectLastSync: (state) => state.lastSync,
    selectAgreementAccepted: (state) => state.agreementAccepted,
  },
});

export const { localeChosen, inviteCodeReceived, guestIdAssigned, guestIdRevoked, walletSynced, agreementAccepted } = prefsSlice.actions;
export const { selectLocale, selectInviteCode, selectGuestId, selectLastSync, selectAgreementAccepted } = prefsSlice.selectors;
export const prefsReducer = prefsSlice.reducer;
export default prefsSlice;
