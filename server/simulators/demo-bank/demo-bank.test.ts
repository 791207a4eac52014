import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { createDepositAdapters } from '../../plugins/deposits/adapters';
import { readSlip } from '../../plugins/deposits/domain/slip-qr';
import { decryptGiftLink } from '../../plugins/deposits/domain/giftlink';
import { requestWithdrawal } from '../../plugins/wallet/withdrawals';
import { balanceOf, createPlayer, expectLedgerOk, multipart } from '../../test/support/deposits';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const form = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: new URLSearchParams(fields).toString() });

test('the page lists a pending QR, and paying it there credits the wallet through the signed webhook', async () => {
  const p = await createPlayer(t.app);
  const qr = (await t.app.inject({ method: 'POST', url: '/api/qrcode/KBANK', headers: p.headers, payload: { amount: 100 } })).json();
  const page = await t.app.inject({ method: 'GET', url: '/demo/bank' });
  expect(page.statusCode).toBe(200);
  expect(page.headers['content-type']).toMatch(/text\/html/);
  expect(page.body).toContain(`/demo/bank/qr/${qr.qrcodeId}/pay`);
  expect(page.body).toContain('<script src="/demo/bank/bank.js" defer></script>');
  expect(page.body).not.toMatch(/<script>|<style>| on[a-z]+="/); // CSP: no inline script or style
  expect((await t.app.inject({ method: 'GET', url: '/demo/bank/bank.js' })).headers['content-type']).toMatch(/javascript/);

  const paid = await form(`/demo/bank/qr/${qr.qrcodeId}/pay`, { amount: '' });
  expect(paid.statusCode).toBe(303);
  expect(paid.headers.location).toMatch(/^\/demo\/bank\?ok=/);
  expect(await balanceOf(t.app, p.id)).toBe(10000);
  const event = await t.app.db.selectFrom('payment_events').selectAll().where('reference', '=', qr.qrcodeId).executeTakeFirstOrThrow();
  expect(event.outcome).toBe('CREDITED');
  // Paid once: a second click reports what the webhook said.
  const again = await form(`/demo/bank/qr/${qr.qrcodeId}/pay`, {});
  expect(decodeURIComponent(again.headers.location as string)).toContain('QR_ALREADY_PAID');
  expect(await balanceOf(t.app, p.id)).toBe(10000);
});

test('a transfer yields a downloadable slip whose QR the upload recognises', async () => {
  const p = await createPlayer(t.app);
  const res = await form('/demo/bank/transfer', { playerId: String(p.id), amount: '321.00', receiver: 'account', minutesAgo: '0' });
  expect(res.statusCode).toBe(303);
  const ref = new URL(res.headers.location as string, 'http://x').searchParams.get('slip')!;
  expect(ref).toMatch(/^[A-Za-z0-9]+$/);
  const png = await t.app.inject({ method: 'GET', url: `/demo/bank/slips/${ref}.png` });
  expect(png.headers['content-type']).toBe('image/png');
  expect(png.headers['content-disposition']).toContain('attachment');
  expect(readSlip(png.rawPayload)).toMatchObject({ sendingBank: '004', transRef: ref });
  const body = multipart([{ name: 'file', filename: 'slip.png', contentType: 'image/png', data: png.rawPayload }]);
  const up = await t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...p.headers, 'content-type': body.contentType }, payload: body.payload });
  expect(up.json()).toMatchObject({ slip: { status: 'SUCCESS', amount: 321 } });
  expect((await t.app.inject({ method: 'GET', url: '/demo/bank/slips/NOPE0000.png' })).statusCode).toBe(404);
});

test('payouts are listed and settled through the webhook', async () => {
  const p = await createPlayer(t.app);
  const qr = (await t.app.inject({ method: 'POST', url: '/api/qrcode/KBANK', headers: p.headers, payload: { amount: 1000 } })).json();
  await form(`/demo/bank/qr/${qr.qrcodeId}/pay`, {});
  const w = await requestWithdrawal(t.app.wallet.withdrawDeps, p.id, 40000);
  expect((await t.app.inject({ method: 'GET', url: '/demo/bank' })).body).toContain(`/demo/bank/payouts/${w.withdrawalId}/settle`);
  const res = await form(`/demo/bank/payouts/${w.withdrawalId}/settle`, { result: 'failed' });
  expect(decodeURIComponent(res.headers.location as string)).toContain('PAYOUT_FAILED');
  expect(await balanceOf(t.app, p.id)).toBe(100000);
  await expectLedgerOk(t.app);
});

test('gift vouchers issued by the bank redeem in the wallet', async () => {
  const p = await createPlayer(t.app);
  const res = await form('/demo/bank/gift', { amount: '25' });
  const q = new URL(res.headers.location as string, 'http://x').searchParams;
  expect(decryptGiftLink(q.get('giftEnc')!)).toBe(q.get('giftLink'));
  const sent = await t.app.inject({ method: 'POST', url: '/api/wallet/truelink', headers: p.headers, payload: { link: q.get('giftEnc') } });
  expect(sent.json()).toMatchObject({ status: 'SUCCESS', amount: 25 });
});

test('a cross-site form cannot make the bank pay', async () => {
  const p = await createPlayer(t.app);
  const qr = (await t.app.inject({ method: 'POST', url: '/api/qrcode/KBANK', headers: p.headers, payload: { amount: 10 } })).json();
  const res = await form(`/demo/bank/qr/${qr.qrcodeId}/pay`, {}, { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' });
  expect(res.statusCode).toBe(403);
  expect(await balanceOf(t.app, p.id)).toBe(0);
});

test('outside demo mode there is no bank, and simulators must be chosen deliberately', async () => {
  const keys = ['GAME_PROVIDER', 'PAYOUT_PROVIDER', 'PAYMENT_GATEWAY', 'SLIP_VERIFIER', 'GIFT_REDEEMER'];
  const saved = keys.map((k) => process.env[k]);
  for (const k of keys) process.env[k] = 'simulator';
  try {
    const stub = { config: { demo: false }, db: t.app.db, clock: t.app.clock } as unknown as FastifyInstance;
    expect(() => createDepositAdapters(stub, { PAYMENT_GATEWAY: 'simulator', GIFT_REDEEMER: 'simulator' }, {})).toThrow(/SLIP_VERIFIER is required when DEMO is off/);
    expect(() => createDepositAdapters(stub, { PAYMENT_GATEWAY: 'acme', SLIP_VERIFIER: 'simulator', GIFT_REDEEMER: 'simulator' }, {})).toThrow(/not available/);
    const prod = await buildTestApp({ DEMO: 'off' });
    try {
      expect((await prod.app.inject({ method: 'GET', url: '/demo/bank' })).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  } finally {
    keys.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
  }
});
