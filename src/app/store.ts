import { combineSlices, configureStore, type Middleware } from '@reduxjs/toolkit';
import { FLUSH, PAUSE, PERSIST, persistReducer, PURGE, REGISTER, REHYDRATE, type PersistConfig } from 'redux-persist';

import { chatReducer } from '../features/chat/chatSlice';
import type { QrReplace } from '../features/deposit/qrReplaceSlice';
import { qrDepositReducer } from '../features/deposit/qrSlice';
import { realityReducer, type RealityState } from '../features/limits/realitySlice';
import { restrictionFlowReducer } from '../features/limits/restrictionFlow';
import { registerReducer } from '../features/register/registerSlice';
import { loggedInSession, sessionReducer, type SessionState } from '../features/session/sessionSlice';
import type { HomeState } from '../features/wallet/homeSlice';
import type { LaunchState } from '../features/wallet/launchSlice';
import type { RecoverState } from '../features/recover/recoverSlice';
import type { RefundFlow } from '../features/refund/refundSlice';
import type { ActivationFlow } from '../features/bonus/activationFlow';
import type { CancelFlow } from '../features/bonus/cancelFlow';
import type { PromotionFlow } from '../features/bonus/promotionFlow';
import type { MoveState } from '../features/wallet/moveFlow';
import type { ClaimFlow } from '../features/wheel/claimSlice';
import { spinReducer } from '../features/wheel/spinSlice';
import { api } from '../core/api';
import type { BannerGates } from '../core/bannerGateSlice';
import { liveReducer } from '../core/liveSlice';
import { sessionEnded } from '../core/authEvents';
import { modalsReducer } from '../core/modalSlice';
import { localStore, sessionStorageRouter } from './persist';
import { prefsReducer, type PrefsState } from '../core/prefs';
import { withHostControls } from './host/hostSlice';
import { provideSliceInjector } from '../core/lazySlices';

/** Only the token and the remember flag are stored; a stored token comes back as a logged-in session. */
const sessionPersist: PersistConfig<SessionState> = {
  key: 'token',
  storage: sessionStorageRouter,
  whitelist: ['token', 'remember'],
  stateReconciler: (inbound, _original, reduced) => {
    const stored = inbound as Partial<SessionState> | undefined;
    return stored && typeof stored.token === 'string' && stored.token !== ''
      ? loggedInSession(stored.token, stored.remember === true)
      : reduced;
  },
};

const prefsPersist: PersistConfig<PrefsState> = { key: 'prefs', storage: localStore };
/** The reality checks acknowledged in the current session (issue 15), so a reload does not ask again. */
const realityPersist: PersistConfig<RealityState> = { key: 'reality', storage: localStore, whitelist: ['startedAt', 'acknowledged'] };

/**
 * Slices the lazy chunks that use them inject (core/lazySlices.ts injectSlice), so the /login bundle does not carry them.
 * Issue 12: the transfer / withdraw flow and the game launch (features/wallet/flowSlices.ts), not persisted (a
 * reload starts them afresh).
 */
export interface LazyLoadedSlices {
  moveFlow: MoveState;
  gameLaunch: LaunchState;
  /** The home's refusals and invite receive (features/wallet/homeStore.ts), with the wallet's chunk. */
  home: HomeState;
  /** The QR panel's "cancel the other QR?" question (features/deposit/qrReplaceStore.ts), with the deposit modal's chunk. */
  qrReplace: QrReplace;
  /** The forgotten-password machine (features/recover/recoverStore.ts), with the /forgot chunk. */
  recover: RecoverState;
  /** The refund modal's receive machine (features/refund/refundStore.ts), with the modal's chunk. */
  refund: RefundFlow;
  /** The coupon claim machine (features/wheel/claimStore.ts), with the wheel modal's chunk. */
  couponClaim: ClaimFlow;
  /** The home modals' banner gates (core/bannerGateStore.ts), with the home's chunk. */
  bannerGates: BannerGates;
  /** The bonus screen's flows (features/bonus/bonusStore.ts), with the /user/bonus chunk. */
  bonusPromotion: PromotionFlow;
  bonusActivation: ActivationFlow;
  bonusCancel: CancelFlow;
}

export const rootReducer = combineSlices({
  [api.reducerPath]: api.reducer,
  session: persistReducer(sessionPersist, sessionReducer),
  prefs: persistReducer(prefsPersist, prefsReducer),
  modals: modalsReducer,
  qrDeposit: qrDepositReducer,
  register: registerReducer,
  spin: spinReducer,
  restrictionFlow: restrictionFlowReducer,
  reality: persistReducer(realityPersist, realityReducer),
  live: liveReducer,
  // Not persisted: only the guest id (prefs.guestId) outlives the page.
  chat: chatReducer,
}).withLazyLoadedSlices<LazyLoadedSlices>();

// The lazy chunks' slices (LazyLoadedSlices) come in through core/lazySlices.ts, which features may import.
provideSliceInjector((slice) => rootReducer.inject(slice as Parameters<typeof rootReducer.inject>[0]));

export type RootState = ReturnType<typeof rootReducer>;
/** A starting state for tests and server-free starts: any slice, without redux-persist's bookkeeping. */
export type PreloadedState = { [K in keyof RootState]?: Omit<RootState[K], '_persist'> };

/** Data fetched for one player must not be shown to the next: the API cache goes when the session ends. */
const resetApiOnSessionEnd: Middleware = (storeApi) => (next) => (action) => {
  const result = next(action);
  if (sessionEnded.match(action)) storeApi.dispatch(api.util.resetApiState());
  return result;
};

export function makeStore(preloadedState?: PreloadedState) {
  return configureStore({
    // The mobile/iframe build adds the host's controls (app/host); the web build has no such slice. (The wrapper is a
    // plain reducer: the store only calls it, while slices are injected into rootReducer, which it calls.)
    reducer: process.env.VARIANT === 'mobile' ? (withHostControls(rootReducer) as unknown as typeof rootReducer) : rootReducer,
    preloadedState: preloadedState as Partial<RootState> | undefined,
    middleware: (getDefaultMiddleware) =>
      getDefaultMiddleware({
        serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER], warnAfter: 128 },
        immutableCheck: { warnAfter: 128 },
      })
        .prepend(resetApiOnSessionEnd)
        .concat(api.middleware),
    devTools: process.env.NODE_ENV !== 'production',
  });
}

export type AppStore = ReturnType<typeof makeStore>;
export type AppDispatch = AppStore['dispatch'];
