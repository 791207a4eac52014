import { autoLoginPath, launchTargets, withLanguage } from './launch';
import { slot } from '../../test/support/wallet';

describe('game launch', () => {
  it('builds the auto-login path from the current credentials, with the password only for games that take it', () => {
    const pg = slot('pg', { isActive: true, web: '/api/autoLogin/pg/pw1' });
    const usun = slot('usun', { isActive: true, web: '/api/autoLogin/usun/pw1/old' });
    expect(autoLoginPath(pg, { username: 'pw1', password: 'secret' })).toBe('/api/autoLogin/pg/pw1');
    expect(autoLoginPath(usun, { username: 'pw1', password: 'n3w/pa ss' })).toBe('/api/autoLogin/usun/pw1/n3w%2Fpa%20ss');
    expect(autoLoginPath(usun, undefined)).toBe('/api/autoLogin/usun/pw1/old');
    expect(autoLoginPath(slot('x'), { username: 'a', password: 'b' })).toBeNull();
  });

  it('appends the language to the provider link', () => {
    expect(withLanguage('/sim/games/pg/play?t=abc', 'la', 'http://w.example')).toBe('http://w.example/sim/games/pg/play?t=abc&lang=la');
    expect(withLanguage('https://g.example/play', 'th')).toBe('https://g.example/play?lang=th');
    expect(withLanguage('https://g.example/play?lang=en&t=1', 'th')).toBe('https://g.example/play?lang=th&t=1');
  });

  it('offers web, android and ios only as present', () => {
    expect(launchTargets(slot('a', { web: '/x', ios: 'https://apps.apple.com/x' }))).toEqual(['web', 'ios']);
    expect(launchTargets(slot('b'))).toEqual([]);
  });
});
