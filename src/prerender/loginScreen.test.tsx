import { BRAND_SLOT } from '../../shared/prerender';
import { renderLoginScreens } from './loginScreen';
import { standIn } from './renderScreen';

// React's development build warns that layout effects do not run on the server: they run once the app renders.
const { error } = console;
beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes('useLayoutEffect does nothing on the server')) error(...args);
  });
});
afterEach(() => jest.restoreAllMocks());

test('renders the login screen for every language, demo mode and chat switch, the brand left to the server', async () => {
  const { slot, variants } = await renderLoginScreens();
  expect(slot).toBe(BRAND_SLOT);
  expect(variants.map((v) => `${v.locale}/${v.lang}/${v.demo}/${v.chat}`)).toEqual(
    ['th/th', 'la/lo', 'en/en'].flatMap((l) => ['false/false', 'false/true', 'true/false', 'true/true'].map((d) => `${l}/${d}`)),
  );
  const titles = { th: 'เข้าสู่ระบบ', la: 'ເຂົ້າສູ່ລະບົບ', en: 'Log in' };
  for (const v of variants) {
    expect(v.html).toContain(`<a class="top-bar__brand" href="/login" data-discover="true">${BRAND_SLOT}</a>`);
    expect(v.html).toMatch(new RegExp(`<h1 class="page-title">${titles[v.locale]}<`));
    expect(v.html.includes('class="demo-banner"')).toBe(v.demo);
    expect(v.html.includes('chat-launcher')).toBe(v.chat);
    expect(v.html).toMatch(/<input disabled="" id="login-username"/);
    expect(v.html).not.toContain('data-testid');
  }
});

test('standIn disables every control once and drops test ids', () => {
  expect(standIn('<input id="a" data-testid="x"/><select disabled=""></select><button type="submit">x</button><textarea></textarea>')).toBe(
    '<input disabled="" id="a"/><select disabled=""></select><button disabled="" type="submit">x</button><textarea disabled=""></textarea>',
  );
});
