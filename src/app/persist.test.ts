import { persistStore } from 'redux-persist';

import { loggedInSession } from '../features/session/sessionSlice';
import { rememberFlagOf, sessionStorageRouter } from './persist';
import { makeStore } from './store';

const record = (token: string | null, remember: boolean) =>
  JSON.stringify({ token: JSON.stringify(token), remember: JSON.stringify(remember), _persist: '{"version":-1,"rehydrated":true}' });

function rehydrated() {
  const store = makeStore();
  return new Promise<ReturnType<typeof makeStore>>((resolve) => persistStore(store, null, () => resolve(store)));
}

describe('session storage routing (spec §3 token)', () => {
  it('reads the remember flag of a stored record', () => {
    expect(rememberFlagOf(record('t', true))).toBe(true);
    expect(rememberFlagOf(record('t', false))).toBe(false);
    expect(rememberFlagOf('not json')).toBe(false);
  });

  it('keeps a remembered session in localStorage only, and a tab session in sessionStorage only', async () => {
    await sessionStorageRouter.setItem('persist:token', record('a', true));
    expect(window.localStorage.getItem('persist:token')).toBe(record('a', true));
    expect(window.sessionStorage.getItem('persist:token')).toBeNull();

    await sessionStorageRouter.setItem('persist:token', record('b', false));
    expect(window.sessionStorage.getItem('persist:token')).toBe(record('b', false));
    expect(window.localStorage.getItem('persist:token')).toBeNull();

    await sessionStorageRouter.removeItem('persist:token');
    expect(window.sessionStorage.getItem('persist:token')).toBeNull();
  });

  it.each([
    ['localStorage', window.localStorage, true],
    ['sessionStorage', window.sessionStorage, false],
  ])('restores a stored token from %s as a logged-in session', async (_name, storage, remember) => {
    storage.setItem('persist:token', record('tok-stored', remember));
    const store = await rehydrated();
    expect(store.getState().session).toMatchObject(loggedInSession('tok-stored', remember));
  });

  it('starts logged out when nothing is stored, and restores the language', async () => {
    window.localStorage.setItem('persist:prefs', JSON.stringify({ locale: '"la"', inviteCode: '"PR7"' }));
    const store = await rehydrated();
    expect(store.getState().session.token).toBeNull();
    expect(store.getState().prefs).toMatchObject({ locale: 'la', inviteCode: 'PR7' });
  });

  it('never persists the API cache', async () => {
    const store = await rehydrated();
    const persistor = persistStore(store);
    await persistor.flush();
    const keys = Object.keys(window.localStorage).concat(Object.keys(window.sessionStorage));
    expect(keys.every((key) => key === 'persist:token' || key === 'persist:prefs' || key === 'persist:reality')).toBe(true);
    expect(JSON.stringify(window.localStorage)).not.toContain('queries');
  });
});
