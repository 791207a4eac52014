import { persistStore } from 'redux-persist';

import { sessionEnded, sessionLimitReached } from '../../core/authEvents';
import { makeStore } from '../../app/store';
import { initialReality, realityAcknowledged, realityReducer, selectAcknowledged, selectSessionLimitReached, type RealityState } from './realitySlice';

function rehydrated() {
  const store = makeStore();
  return new Promise<{ store: typeof store; persistor: ReturnType<typeof persistStore> }>((resolve) => {
    const persistor = persistStore(store, null, () => resolve({ store, persistor }));
  });
}

const S1 = '2026-11-26T10:00:00.000Z';
const S2 = '2026-11-26T18:00:00.000Z';

describe('reality check slice', () => {
  it('remembers the checks acknowledged in a session, by its start', () => {
    const state = realityReducer(initialReality, realityAcknowledged({ startedAt: S1, count: 1 }));
    expect(state).toEqual({ startedAt: S1, acknowledged: 1, sessionLimit: false });
    expect(selectAcknowledged({ reality: state }, S1)).toBe(1);
    // Another session has acknowledged nothing yet.
    expect(selectAcknowledged({ reality: state }, S2)).toBe(0);
  });

  it('only counts up within a session; a stale or invalid count changes nothing', () => {
    const at2: RealityState = { startedAt: S1, acknowledged: 2, sessionLimit: false };
    expect(realityReducer(at2, realityAcknowledged({ startedAt: S1, count: 3 })).acknowledged).toBe(3);
    expect(realityReducer(at2, realityAcknowledged({ startedAt: S1, count: 1 }))).toBe(at2);
    expect(realityReducer(at2, realityAcknowledged({ startedAt: S1, count: -1 }))).toBe(at2);
    expect(realityReducer(at2, realityAcknowledged({ startedAt: S1, count: 1.5 }))).toBe(at2);
  });

  it('starts afresh for a new session (only the current one is kept)', () => {
    const at2: RealityState = { startedAt: S1, acknowledged: 2, sessionLimit: false };
    expect(realityReducer(at2, realityAcknowledged({ startedAt: S2, count: 1 }))).toEqual({ startedAt: S2, acknowledged: 1, sessionLimit: false });
  });

  it('raises the session-limit flag on SESSION_LIMIT and forgets everything when the session ends', () => {
    const limited = realityReducer({ startedAt: S1, acknowledged: 2, sessionLimit: false }, sessionLimitReached());
    expect(selectSessionLimitReached({ reality: limited })).toBe(true);
    expect(realityReducer(limited, sessionLimitReached())).toBe(limited);
    expect(realityReducer(limited, sessionEnded('logout'))).toEqual(initialReality);
  });

  it('is persisted (persist:reality in localStorage) without the session-limit flag, and comes back on reload', async () => {
    const { store, persistor } = await rehydrated();
    store.dispatch(realityAcknowledged({ startedAt: S1, count: 2 }));
    store.dispatch(sessionLimitReached());
    await persistor.flush();
    persistor.pause();
    const stored = JSON.parse(window.localStorage.getItem('persist:reality') ?? '{}') as Record<string, string>;
    expect(JSON.parse(stored.startedAt)).toBe(S1);
    expect(JSON.parse(stored.acknowledged)).toBe(2);
    expect(stored).not.toHaveProperty('sessionLimit');

    const reloaded = await rehydrated();
    reloaded.persistor.pause();
    expect(selectAcknowledged(reloaded.store.getState(), S1)).toBe(2);
    expect(selectSessionLimitReached(reloaded.store.getState())).toBe(false);
  });
});
