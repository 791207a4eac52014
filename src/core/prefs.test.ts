import { endpointAction } from '../test/support/rtkActions';
import { agreementAccepted, guestIdAssigned, initialPrefs, inviteCodeReceived, localeChosen, prefsReducer, selectLastSync, selectLocale, walletSynced } from './prefs';
import { walletApi } from './walletApi';

describe('prefs slice', () => {
  it('defaults to Thai in the th market build', () => {
    expect(initialPrefs.locale).toBe('th');
  });

  it('defaults to Lao in the Lao market build (MARKET=lao)', () => {
    const before = process.env.MARKET;
    process.env.MARKET = 'lao';
    try {
      jest.isolateModules(() => {
        const { initialPrefs: laoPrefs } = require('./prefs') as typeof import('./prefs');
        expect(laoPrefs.locale).toBe('la');
      });
    } finally {
      if (before === undefined) delete process.env.MARKET;
      else process.env.MARKET = before;
    }
  });

  it('records the events it is told about', () => {
    let state = prefsReducer(initialPrefs, localeChosen('la'));
    state = prefsReducer(state, inviteCodeReceived('PR42'));
    state = prefsReducer(state, walletSynced('2024-06-01T12:00:00.000Z'));
    state = prefsReducer(state, agreementAccepted());
    state = prefsReducer(state, guestIdAssigned('guest-1'));
    expect(state).toEqual({ locale: 'la', inviteCode: 'PR42', guestId: 'guest-1', lastSync: '2024-06-01T12:00:00.000Z', agreementAccepted: true });
    expect(selectLocale({ prefs: state })).toBe('la');
  });

  it('refuses to replace a guest id once assigned (one per device)', () => {
    const state = prefsReducer(initialPrefs, guestIdAssigned('guest-1'));
    expect(prefsReducer(state, guestIdAssigned('guest-2'))).toBe(state);
  });

  describe('last_sync: when the balance was last read', () => {
    const at = Date.UTC(2026, 10, 26, 7, 30, 0);
    const walletLoad = (phase: 'pending' | 'fulfilled' | 'rejected') => endpointAction('query', 'getWallet', phase, 'w1', undefined, phase === 'fulfilled' ? { wallet: { amount: 1 } } : undefined, at);
    const refreshAll = (phase: 'pending' | 'fulfilled' | 'rejected') => endpointAction('mutation', 'refreshGameBalances', phase, 'r1', undefined, undefined, at);

    it('builds the actions the wallet endpoints themselves match', () => {
      expect(walletApi.endpoints.getWallet.matchFulfilled(walletLoad('fulfilled'))).toBe(true);
      expect(walletApi.endpoints.refreshGameBalances.matchFulfilled(refreshAll('fulfilled'))).toBe(true);
    });

    it('is set to the answer time when GET /api/wallet succeeds', () => {
      const state = prefsReducer(initialPrefs, walletLoad('fulfilled'));
      expect(selectLastSync({ prefs: state })).toBe('2026-11-26T07:30:00.000Z');
    });

    it('is set when refresh-all succeeds', () => {
      expect(prefsReducer(initialPrefs, refreshAll('fulfilled')).lastSync).toBe('2026-11-26T07:30:00.000Z');
    });

    it.each([
      ['a wallet load that failed', walletLoad('rejected')],
      ['a wallet load still running', walletLoad('pending')],
      ['a refresh-all that failed', refreshAll('rejected')],
      ['another endpoint answering', endpointAction('query', 'getSpinActive', 'fulfilled', 's1', undefined, { isActive: true }, at)],
    ])('is kept after %s', (_name, action) => {
      const before = { ...initialPrefs, lastSync: '2026-11-25T00:00:00.000Z' };
      expect(prefsReducer(before, action)).toBe(before);
      expect(prefsReducer(initialPrefs, action).lastSync).toBeNull();
    });
  });
});
