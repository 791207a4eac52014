import type { Browser } from 'playwright-core';
import { USER_SECTIONS } from '../../src/core/localeParts';
import { DEMO_LOGIN, launchBrowser, phoneContext, say, startServer, switchTo, type RunningServer } from './harness';

/**
 * The texts ship in two parts per language (src/core/localeParts.ts): /login downloads the public part only; the
 * player's area loads its part before it shows, also for a language first loaded on a public page.
 */
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

test('/login loads only the public texts; the player\'s area shows its texts, never their keys, in a language chosen on /login and after a switch', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  const texts: string[] = [];
  page.on('request', (request) => {
    const name = /\/assets\/locale-([a-z]+-json-(?:public|user))\./.exec(new URL(request.url()).pathname)?.[1];
    if (name) texts.push(name);
  });
  // Every text that ever shows is checked for a user section's key (what i18next shows for a missing text).
  await page.addInitScript((pattern) => {
    const seen: string[] = [];
    (window as unknown as { rawKeys: string[] }).rawKeys = seen;
    const check = (text: string | null) => {
      const found = text?.match(new RegExp(pattern, 'g'));
      if (found) seen.push(...found);
    };
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'characterData') check(record.target.textContent);
        record.addedNodes.forEach((node) => check(node.textContent));
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
  }, `\\b(?:${USER_SECTIONS.join('|')})\\.[a-zA-Z]\\w*`);

  await page.goto(`${server.url}/login`);
  await page.getByTestId('page-title').waitFor();
  await switchTo(page, 'la');
  await page.getByTestId('page-title').filter({ hasText: say('la', 'login.title') }).waitFor();
  expect(texts).toEqual(['th-json-public', 'la-json-public']);

  await page.getByTestId('login-phone').fill(DEMO_LOGIN.phone);
  await page.getByTestId('login-password').fill(DEMO_LOGIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/user\/home$/);
  // The agreement and the balance are the user part's texts, in the language chosen on /login.
  const agreement = page.getByRole('dialog', { name: say('la', 'agreement.title') });
  await agreement.waitFor();
  await page.getByText(say('la', 'home.totalBalance')).first().waitFor();
  expect(texts).toEqual(['th-json-public', 'la-json-public', 'la-json-user']);
  await agreement.getByTestId('agreement-accept').click();
  await agreement.waitFor({ state: 'detached' });

  // Thai was loaded on /login without its user part: the switch brings it.
  await switchTo(page, 'th');
  await page.getByTestId('page-title').filter({ hasText: say('th', 'pages.home') }).waitFor();
  await page.getByText(say('th', 'home.totalBalance')).first().waitFor();
  expect(texts).toEqual(['th-json-public', 'la-json-public', 'la-json-user', 'th-json-user']);
  expect(await page.evaluate(() => (window as unknown as { rawKeys: string[] }).rawKeys)).toEqual([]);
  await context.close();
});

test('when the player\'s texts cannot be downloaded the area says so, and Try again opens it once they are back', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.url}/login`);
  await switchTo(page, 'la');
  let blocked = true;
  let tries = 0;
  await page.route(/\/assets\/locale-la-json-user\.[^/]*\.js$/, (route) => {
    if (!blocked) return route.continue();
    tries += 1;
    return route.abort('internetdisconnected');
  });
  await page.getByTestId('login-phone').fill(DEMO_LOGIN.phone);
  await page.getByTestId('login-password').fill(DEMO_LOGIN.password);
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/user\/home$/);
  const failed = page.getByTestId('chunk-error');
  await failed.filter({ hasText: say('la', 'chunkError.title') }).waitFor();
  expect(tries).toBe(3); // the first try and two retries, as for any chunk

  blocked = false;
  await page.getByTestId('chunk-retry').click();
  await page.getByTestId('page-title').filter({ hasText: say('la', 'pages.home') }).waitFor();
  await page.getByRole('dialog', { name: say('la', 'agreement.title') }).waitFor();
  await failed.waitFor({ state: 'detached' });
  await context.close();
});
