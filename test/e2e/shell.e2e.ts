import type { Browser } from 'playwright-core';
import type { Page } from 'playwright-core';
import { DEMO_LOGIN, expectAccessible, expectTapTargets, launchBrowser, logIn, phoneContext, startServer, until, type RunningServer } from './harness';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test('a visitor opening / lands on /login', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.url}/`);
  await page.waitForURL(/\/login(\?|$)/);
  await page.getByTestId('page-title').waitFor();
  await expectAccessible(page);
  await context.close();
});

test('the language switch changes the text in th, la and en and survives a reload', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.url}/login`);
  const switcher = page.getByTestId('language-switcher');
  await switcher.waitFor();
  // Each language's title is in its own script: Thai, Lao, plain ASCII English.
  const script: Record<string, string> = { th: '[\\u0E00-\\u0E7F]', la: '[\\u0E80-\\u0EFF]', en: '^[\\x20-\\x7E]+$' };
  const titles: Record<string, string> = {};
  for (const lng of ['en', 'la', 'th']) {
    await switcher.selectOption(lng);
    // The text changes when the language's chunk has loaded, which may be after <html lang> changes.
    await page.waitForFunction(
      ([l, re]) =>
        document.documentElement.lang === (l === 'la' ? 'lo' : l) &&
        new RegExp(re).test(document.querySelector('[data-testid="page-title"]')?.textContent ?? ''),
      [lng, script[lng]] as const,
    );
    titles[lng] = (await page.getByTestId('page-title').textContent()) ?? '';
    await expectAccessible(page);
  }
  expect(new Set(Object.values(titles)).size).toBe(3);

  await switcher.selectOption('la');
  await page.waitForFunction(() => document.documentElement.lang === 'lo');
  await page.reload();
  await page.getByTestId('page-title').waitFor();
  await page.waitForFunction(
    (re) => document.documentElement.lang === 'lo' && new RegExp(re).test(document.querySelector('[data-testid="page-title"]')?.textContent ?? ''),
    script.la,
  );
  expect(await page.getByTestId('page-title').textContent()).toBe(titles.la);
  await context.close();
});

test('an unknown path shows Page Not Found while the API keeps answering JSON', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.url}/no/such/page`);
  await page.waitForFunction(() => document.title.includes('Page Not Found'));
  await expectAccessible(page);
  const api = await page.request.get(`${server.url}/api/no/such/route`);
  expect(api.status()).toBe(404);
  expect(await api.json()).toEqual({ message: 'NO_DATA' });
  await context.close();
});

test('when the operator terminates the site every route goes to /terminated', async () => {
  server.operator('site', 'gone');
  try {
    const context = await phoneContext(browser);
    const page = await context.newPage();
    for (const path of ['/login', '/register', '/howto', '/user/home', '/whatever']) {
      await page.goto(`${server.url}${path}`);
      await page.waitForURL(/\/terminated$/);
      await page.getByTestId('terminated').waitFor();
    }
    await expectAccessible(page);
    await context.close();
  } finally {
    server.operator('site', 'active');
  }
});

/** The bottom menu's labels are shown whole (they may wrap, never clipped with an ellipsis). */
async function expectMenuLabelsFit(page: Page): Promise<void> {
  const clipped = await page.$$eval('.bottom-menu__item span', (spans) =>
    spans.filter((s) => s.scrollWidth > s.clientWidth + 1 || s.scrollHeight > s.clientHeight + 1).map((s) => s.textContent),
  );
  expect(clipped).toEqual([]);
}

test('at 360 px every control on login, register, home and profile is at least 44 x 44 px, and the menu labels fit, in th and la', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  const language = async (lng: 'th' | 'la') => {
    await page.getByTestId('language-switcher').selectOption(lng);
    await page.waitForFunction((l) => document.documentElement.lang === l, lng === 'la' ? 'lo' : lng);
  };
  for (const lng of ['th', 'la'] as const) {
    await page.goto(`${server.url}/login`);
    await page.getByTestId('login-submit').waitFor();
    await language(lng);
    await expectTapTargets(page);
    await expectMenuLabelsFit(page);
    await page.goto(`${server.url}/register`);
    await page.getByTestId('page-title').waitFor();
    await expectTapTargets(page);
    await expectMenuLabelsFit(page);
  }
  await logIn(page, server.url);
  for (const lng of ['th', 'la'] as const) {
    await language(lng);
    for (const path of ['/user/home', '/user/profile']) {
      await page.goto(`${server.url}${path}`);
      await page.getByTestId('page-title').waitFor();
      await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' }).catch(() => undefined);
      await expectTapTargets(page);
      await expectMenuLabelsFit(page);
    }
  }
  await context.close();
});

/**
 * What the chat button covers on the page as it is: every visible control (and the offline banner) is scrolled to
 * the button's height (as far as the page scrolls), and `elementFromPoint` is asked at its centre and four corners
 * (1 px in); a control is listed when the button is hit where, without it, the control would be (a control that
 * has scrolled beneath the bottom menu is the menu's, not the button's). The page is left scrolled to the top.
 */
async function underChatButton(page: Page): Promise<string[]> {
  await page.getByTestId('chat-launcher').waitFor();
  return page.evaluate(() => {
    const launcher = document.querySelector<HTMLElement>('[data-testid="chat-launcher"]')!;
    const selector = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex="0"], [role="button"], [role="link"], .offline-banner';
    const covered = new Set<string>();
    for (const el of Array.from(document.querySelectorAll(selector))) {
      if (el === launcher || launcher.contains(el) || el.closest('[aria-hidden="true"], [inert]')) continue;
      const first = el.getBoundingClientRect();
      if (first.width < 2 || first.height < 2 || getComputedStyle(el).visibility === 'hidden') continue;
      const chat = launcher.getBoundingClientRect();
      window.scrollTo({ top: window.scrollY + first.top + first.height / 2 - (chat.top + chat.height / 2), behavior: 'instant' });
      const r = el.getBoundingClientRect();
      const points = [
        [r.left + r.width / 2, r.top + r.height / 2],
        [r.left + 1, r.top + 1],
        [r.right - 1, r.top + 1],
        [r.left + 1, r.bottom - 1],
        [r.right - 1, r.bottom - 1],
      ];
      for (const [x, y] of points) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !launcher.contains(hit)) continue;
        // Hidden, the button would show the control there (not the menu the control has scrolled beneath).
        launcher.style.visibility = 'hidden';
        const beneath = document.elementFromPoint(x, y);
        launcher.style.visibility = '';
        if (beneath && el.contains(beneath)) {
          const name = (el.getAttribute('aria-label') || (el as HTMLElement).innerText || el.getAttribute('data-testid') || '').trim().replace(/\s+/g, ' ').slice(0, 40);
          covered.add(`${el.tagName.toLowerCase()}${typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${name}"`);
        }
      }
    }
    window.scrollTo({ top: 0, behavior: 'instant' });
    return [...covered];
  });
}

test('at 360 px the chat button covers no control on the home, bonus, contact and limits screens, nor the offline banner', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await logIn(page, server.url);
  for (const path of ['/user/home', '/user/bonus', '/user/contact', '/user/limits']) {
    await page.goto(`${server.url}${path}`);
    await page.getByTestId('page-title').waitFor();
    await page.locator('[aria-busy="true"]').first().waitFor({ state: 'detached' }).catch(() => undefined);
    expect({ path, covered: await underChatButton(page) }).toEqual({ path, covered: [] });
  }
  await context.setOffline(true);
  await page.locator('.offline-banner').waitFor();
  expect(await underChatButton(page)).toEqual([]);
  await context.setOffline(false);
  // The check does find a control under the button: one placed there (above the menu, below the button) is reported.
  await page.evaluate(() => {
    const chat = document.querySelector('[data-testid="chat-launcher"]')!.getBoundingClientRect();
    const probe = document.createElement('button');
    probe.textContent = 'probe';
    probe.style.cssText = `position: fixed; left: ${chat.left}px; top: ${chat.top}px; width: ${chat.width}px; height: ${chat.height}px; z-index: 15;`;
    document.body.append(probe);
  });
  expect(await underChatButton(page)).toEqual(['button "probe"']);
  await context.close();
});

test('while the app\'s scripts are on their way the page shows the brand\'s bar and a skeleton, gone once the app draws; logging in never empties the content area', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  let release: () => void = () => undefined;
  const scriptsHeld = new Promise<void>((resolve) => {
    release = resolve;
  });
  // A slow network, at its worst: no script arrives until released.
  await page.route('**/assets/*.js', async (route) => {
    await scriptsHeld;
    await route.continue();
  });
  await page.goto(`${server.url}/register`, { waitUntil: 'commit' });
  const skeleton = page.getByTestId('boot-skeleton');
  await skeleton.waitFor();
  expect(await page.locator('#root').evaluate((root) => root.childElementCount)).toBe(0);
  expect(await skeleton.locator('.boot-skeleton__bar').evaluate((bar) => getComputedStyle(bar).backgroundColor)).toBe('rgb(11, 110, 79)');
  release();
  await page.getByTestId('page-title').waitFor();
  await skeleton.waitFor({ state: 'hidden' });
  // The prerendered login (in a hidden root until its fonts are there) is not covered by it either.
  await page.unrouteAll();
  await page.goto(`${server.url}/login`);
  await page.getByTestId('login-submit').waitFor();
  expect(await skeleton.isVisible()).toBe(false);
  // Logging in while the player's area is still on its way: the page's content stays until the home replaces it,
  // never an empty content area (watched every frame from the tap to the home).
  let releaseArea: () => void = () => undefined;
  const areaHeld = new Promise<void>((resolve) => {
    releaseArea = resolve;
  });
  let asked = 0;
  await page.route('**/assets/*.js', async (route) => {
    asked += 1;
    await areaHeld;
    await route.continue();
  });
  await page.getByTestId('login-phone').fill(DEMO_LOGIN.phone);
  await page.getByTestId('login-password').fill(DEMO_LOGIN.password);
  await page.evaluate(() => {
    const w = window as unknown as { blank: string[] };
    w.blank = [];
    const frame = () => {
      const main = document.querySelector('main');
      if (!main || !main.textContent?.trim()) w.blank.push(`${location.pathname}: ${main ? 'empty main' : 'no main'}`);
      requestAnimationFrame(frame);
    };
    frame();
  });
  await page.getByTestId('login-submit').click();
  await until(async () => asked, (n) => n > 0, "the player's area's scripts asked for");
  expect(await page.getByTestId('login-submit').isVisible()).toBe(true);
  releaseArea();
  await page.locator('.balance-card').waitFor();
  expect(await page.evaluate(() => (window as unknown as { blank: string[] }).blank)).toEqual([]);
  await context.close();
});

test('the tap-target check fails on a small control, counts a checkbox with its label, and pads inline links', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.url}/login`);
  await page.getByTestId('login-submit').waitFor();
  await page.evaluate(() => {
    const main = document.querySelector('main')!;
    const small = document.createElement('button');
    small.textContent = 'tiny';
    small.id = 'probe-tiny';
    small.style.cssText = 'all: unset; display: inline-block; width: 30px; height: 30px;';
    main.append(small);
    // A 20 px checkbox whose label row is 44 px tall: the pair is the target.
    const row = document.createElement('div');
    row.innerHTML = '<input type="checkbox" id="probe-box" style="width:20px;height:20px;margin:0"><label for="probe-box" style="display:inline-block;height:44px;width:100px">probe</label>';
    main.append(row);
    // A link in running text: the page's own rule pads it to 44 px.
    const text = document.createElement('p');
    text.innerHTML = 'Read <a href="/howto">the guide</a> first.';
    main.append(text);
  });
  await expect(expectTapTargets(page)).rejects.toThrow(/:\n  button#probe-tiny "tiny": 30 x 30$/);
  await page.evaluate(() => document.getElementById('probe-tiny')!.remove());
  await expectTapTargets(page);
  await context.close();
});

test('at 1280 px the menu is a side menu beside the page and the home has two columns', async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, serviceWorkers: 'block' });
  const page = await context.newPage();
  await logIn(page, server.url);
  const balance = page.locator('.balance-card');
  await balance.waitFor();
  const menu = (await page.locator('nav.bottom-menu').boundingBox())!;
  const main = (await page.locator('main#main').boundingBox())!;
  // A column down the left under the top bar, not a bar along the bottom; the page starts right of it.
  expect(menu.x).toBe(0);
  expect(menu.height).toBeGreaterThan(400);
  expect(menu.width).toBeLessThan(320);
  expect(main.x).toBeGreaterThanOrEqual(menu.x + menu.width);
  expect(main.width).toBeGreaterThan(800);
  // Nothing covers the top bar's brand (the side menu starts below the bar).
  expect(
    await page.getByTestId('brand').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    }),
  ).toBe(true);
  // Menu items are rows (icon beside label) stacked top to bottom.
  const items = await page.locator('.bottom-menu__item').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().top));
  expect(items).toEqual([...items].sort((a, b) => a - b));
  expect(new Set(items).size).toBe(items.length);
  // The home: the balance card and the widgets side by side.
  const card = (await balance.boundingBox())!;
  const widgets = (await page.locator('.home > nav').boundingBox())!;
  expect(widgets.x).toBeGreaterThanOrEqual(card.x + card.width);
  expect(Math.abs(widgets.y - card.y)).toBeLessThan(40);
  await expectAccessible(page);
  await context.close();
});
