import { buildTestApp, type TestApp } from '../../test/support/helper';
import { createPlayer } from '../../test/support/deposits';
import { isLoopback } from '.';

/**
 * Issue 39 row 5: the demo bank pays any QR and lists players' bank accounts without a login, so it answers only a
 * browser on the server's own machine. The socket's address decides, never a header; a proxy on the machine (its
 * socket is loopback, TRUST_PROXY's default) must forward a loopback client too.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const page = (remoteAddress: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/demo/bank', remoteAddress, headers });

test('answers on loopback (IPv4, IPv6, IPv4-mapped) and is not there for any other address, whatever X-Forwarded-For says', async () => {
  for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) expect([address, (await page(address)).statusCode]).toEqual([address, 200]);
  for (const [address, headers] of [
    ['203.0.113.9', {}],
    ['203.0.113.9', { 'x-forwarded-for': '127.0.0.1' }], // a remote client claiming to be local
    ['127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }], // a remote client through a proxy on this machine
    ['10.0.0.5', {}],
  ] as const) {
    const res = await page(address, headers);
    expect([address, headers, res.statusCode, res.json()]).toEqual([address, headers, 404, { message: 'NO_DATA' }]);
  }
});

test("its forms and files are refused from elsewhere too: nothing paid, no player's bank account shown", async () => {
  const p = await createPlayer(t.app);
  const qr = (await t.app.inject({ method: 'POST', url: '/api/qrcode/KBANK', headers: p.headers, payload: { amount: 100 } })).json();
  const pay = await t.app.inject({
    method: 'POST',
    url: `/demo/bank/qr/${qr.qrcodeId}/pay`,
    remoteAddress: '198.51.100.7',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: '',
  });
  expect(pay.statusCode).toBe(404);
  expect((await t.app.db.selectFrom('qr_deposits').select('status').where('id', '=', qr.qrcodeId).executeTakeFirstOrThrow()).status).toBe('LIVE');
  for (const url of ['/demo/bank/bank.js', '/demo/bank/slips/ABCDEF123456.png']) expect((await t.app.inject({ method: 'GET', url, remoteAddress: '198.51.100.7' })).statusCode).toBe(404);
  expect((await page('198.51.100.7')).body).not.toContain(p.bankAccountNo);
});

test('isLoopback', () => {
  expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
  expect(['128.0.0.1', '::2', '::ffff:10.0.0.1', '', undefined, '127.0.0.1.evil', 'localhost'].map(isLoopback)).toEqual([false, false, false, false, false, false, false]);
});
