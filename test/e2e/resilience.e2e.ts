import type { Browser, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, logIn, phoneContext, startServer, type RunningServer } from './harness';

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

/** The top bar's language switch, waiting for the language's texts. */
async function switchTo(page: Page, lng: 'th' | 'la', heading: string) {
  await page.getByTestId('language-switcher').selectOption(lng);
  await page.getByTestId('page-title').filter({ hasText: heading }).waitFor();
}

test('a modal whose chunk cannot be downloaded says so inside the layout, and Try again opens it once the chunk is back', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await logIn(page, server.url);
  await switchTo(page, 'th', 'หน้าหลัก');

  // The deposit modal's chunk (webpackChunkName "modal-deposit") cannot be fetched: every try is aborted.
  let blocked = true;
  let tries = 0;
  await page.route(/\/assets\/modal-deposit\.[^/]*\.js$/, (route) => {
    if (!blocked) return route.continue();
    tries += 1;
    return route.abort('internetdisconnected');
  });
  await page.getByTestId('widget-deposit').click();
  const failed = page.getByRole('dialog', { name: 'เปิดไม่สำเร็จ' });
  await failed.waitFor();
  await failed.getByRole('alert').filter({ hasText: 'โหลดส่วนนี้ของแอปไม่สำเร็จ' }).waitFor();
  expect(tries).toBe(3); // the first try and two retries
  // The app is not blank: the top bar, the balance and the menu are still there.
  await page.getByTestId('logout').waitFor();
  await page.getByTestId('page-title').waitFor();
  await page.getByRole('navigation').first().waitFor();
  await expectAccessible(page);

  blocked = false;
  await failed.getByRole('button', { name: 'ลองอีกครั้ง' }).click();
  await page.getByRole('dialog', { name: 'ฝากเงิน' }).waitFor();
  await failed.waitFor({ state: 'detached' });
  await context.close();
});

test('a route whose chunk cannot be downloaded says so under the top bar and menu, and Try again shows it', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await logIn(page, server.url);
  await switchTo(page, 'la', 'ໜ້າຫຼັກ');

  let blocked = true;
  await page.route(/\/assets\/route-statement\.[^/]*\.js$/, (route) => (blocked ? route.abort('internetdisconnected') : route.continue()));
  await page.getByRole('link', { name: 'ລາຍການເຄື່ອນໄຫວ' }).click();
  await page.waitForURL(/\/user\/statement$/);
  const alert = page.getByRole('alert').filter({ hasText: 'ໂຫຼດສ່ວນນີ້ຂອງແອັບບໍ່ສຳເລັດ' });
  await alert.waitFor();
  await page.getByTestId('logout').waitFor();
  await page.getByRole('link', { name: 'ລາຍການເຄື່ອນໄຫວ' }).waitFor();
  await expectAccessible(page);

  blocked = false;
  await alert.getByRole('button', { name: 'ລອງໃໝ່' }).click();
  await page.getByTestId('page-title').filter({ hasText: 'ລາຍການເຄື່ອນໄຫວ' }).waitFor();
  await alert.waitFor({ state: 'detached' });
  await context.close();
});

test('an offline banner shows while the browser is offline and goes when it is back', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  await logIn(page, server.url);
  const banner = page.getByTestId('offline-banner');
  expect(await banner.count()).toBe(0);

  await context.setOffline(true);
  await banner.waitFor();
  expect(await banner.textContent()).toBe('You are offline. Check your internet connection.');
  expect(await page.getByRole('status').filter({ has: banner }).count()).toBe(1);
  await expectAccessible(page);

  await context.setOffline(false);
  await banner.waitFor({ state: 'detached' });
  await context.close();
});
