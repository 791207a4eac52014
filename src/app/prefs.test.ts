import { agreementAccepted, guestIdAssigned, initialPrefs, inviteCodeReceived, localeChosen, prefsReducer, selectLocale, walletSynced } from './prefs';

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
});
