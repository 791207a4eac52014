import type { Browser } from 'playwright-core';
import { expectAccessible, launchBrowser, phoneContext, startServer, until, type RunningServer } from './harness';

/**
 * Issue 40 item 4 on the real server: a player who forgot the password asks for a code on /login's "Forgot
 * password?", reads it from the SMS simulator, sets a new password, and every earlier session ends (the logged-in
 * phone is sent to /login, a token held elsewhere is refused); the new password logs in.
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

const digits = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 10)).join('');
const api = (path: string, body?: object, token?: string) =>
  fetch(`${server.url}${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });

test('a forgotten password is reset by SMS code and the old sessions end', async () => {
  const phone = `08${digits(8)}`;
  const old = 'forgotten-1';
  const { code: sourceCode } = ((await (await api('/api/lookup/sources')).json()) as { code: string }[])[0];
  const registered = await api('/api/account', {
    name: 'Somchai', username: phone, password: old, sourceCode, inviteCode: '', bankCode: 'KBANK',
    bankAccountName: 'SOMCHAI JAIDEE', bankAccountNo: `1${digits(9)}`, currency: 'BAHT', ageConfirmed: true,
  });
  expect(registered.status).toBe(200);
  // Two earlier sessions: a token held elsewhere, and a phone's browser that stays logged in (remember-me).
  const session = async () => ((await (await api('/api/login', { username: phone, password: old })).json()) as { token: string }).token;
  const elsewhere = await session();
  const loggedIn = await phoneContext(browser);
  const oldPage = await loggedIn.newPage();
  await oldPage.goto(`${server.url}/login`);
  await oldPage.evaluate((token) => localStorage.setItem('persist:token', JSON.stringify({ token: JSON.stringify(token), remember: 'true' })), await session());
  await oldPage.goto(`${server.url}/user/profile`);
  await oldPage.getByTestId('profile-card').waitFor();

  const context = await phoneContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.url}/login`);
  await page.getByTestId('language-switcher').selectOption('en');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await page.waitForURL(/\/forgot$/);
  await page.getByRole('heading', { name: 'Your phone number' }).waitFor();
  await expectAccessible(page);

  // Keyboard only: the phone, then Enter.
  await page.getByLabel('Phone number').fill(phone);
  await page.keyboard.press('Enter');
  const codeHeading = page.getByRole('heading', { name: 'The code from the SMS' });
  await codeHeading.waitFor();
  expect(await codeHeading.evaluate((el) => el === document.activeElement)).toBe(true);
  await expectAccessible(page);
  const ref = ((await page.getByTestId('recover-ref').textContent()) ?? '').replace(/^.*: /, '');
  // The SMS goes out after the answer: read the outbox until it names this code's reference.
  const sms = await until(
    async () => ((await (await api(`/demo/sms?phone=${phone}`)).json()) as { messages: { text: string }[] }).messages[0]?.text ?? '',
    (text) => text.includes(`(Ref ${ref})`),
    'the reset SMS',
  );
  await page.getByLabel('Code from the SMS').fill(/OTP (\d{6})/.exec(sms)![1]);
  await page.getByRole('button', { name: 'Confirm code' }).click();

  await page.getByRole('heading', { name: 'A new password' }).waitFor();
  await expectAccessible(page);
  await page.getByLabel('New password', { exact: true }).fill('remembered-2');
  await page.getByLabel('Confirm new password').fill('remembered-2');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await page.getByTestId('recover-done').waitFor();
  expect(await page.getByTestId('recover-done').textContent()).toContain('every device was logged out');
  await expectAccessible(page);

  // Every earlier session ended: the token held elsewhere is refused, the logged-in phone goes to /login.
  expect((await api('/api/account/profile', undefined, elsewhere)).status).toBe(401);
  await oldPage.goto(`${server.url}/user/profile`);
  await oldPage.waitForURL((url) => url.pathname === '/login');
  // The old password no longer works; the new one does.
  expect((await api('/api/login', { username: phone, password: old })).status).toBe(401);
  await page.getByRole('link', { name: 'Go to log in' }).click();
  await page.waitForURL(/\/login$/);
  await page.getByTestId('login-phone').fill(phone);
  await page.getByTestId('login-password').fill('remembered-2');
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/user\/home$/);
  await Promise.all([context.close(), loggedIn.close()]);
});
