import { BRAND_SLOT } from '../../shared/prerender';
import { renderHomeScreens } from './homeScreen';

// React's development build warns that layout effects do not run on the server: they run once the app renders.
const { error } = console;
beforeEach(() => {
  jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).includes('useLayoutEffect does nothing on the server')) error(...args);
  });
});
afterEach(() => jest.restoreAllMocks());

test("renders the player's home while its wallet loads, for every language, demo mode and chat switch", async () => {
  const { slot, variants, hydratePath } = await renderHomeScreens();
  expect(slot).toBe(BRAND_SLOT);
  expect(variants.map((v) => `${v.locale}/${v.lang}/${v.demo}/${v.chat}`)).toEqual(
    ['th/th', 'la/lo', 'en/en'].flatMap((l) => ['false/false', 'false/true', 'true/false', 'true/true'].map((d) => `${l}/${d}`)),
  );
  const total = { th: 'ยอดเงินรวม', la: 'ຍອດເງິນລວມ', en: 'Total balance' };
  for (const v of variants) {
    expect(v.html).toContain(`<a class="top-bar__brand" data-testid="brand" href="/user/home" data-discover="true">${BRAND_SLOT}</a>`);
    expect(v.html).toContain(`>${total[v.locale]}</p>`);
    // The wallet is loading: no amount, no carousel, no player name.
    expect(v.html).toMatch(/class="balance-card__total"[^>]*>…/);
    expect(v.html).not.toContain('carousel');
    expect(v.html.includes('class="demo-banner"')).toBe(v.demo);
    expect(v.html.includes('chat-launcher')).toBe(v.chat);
    expect(v.html).toContain('class="bottom-menu');
    // The app hydrates it (src/app/start.tsx): exactly its own render, not a stand-in: controls enabled, test ids kept,
    // the language chosen in the switcher.
    expect(v.html).toMatch(/<button type="button" class="widget"/);
    expect(v.html).not.toContain('disabled=""');
    expect(v.html).toContain('data-testid="language-switcher"');
    expect(v.html).toMatch(new RegExp(`<option value="${v.locale}"[^>]*selected=""`));
  }
  expect(hydratePath).toBe('/user/home');
});
