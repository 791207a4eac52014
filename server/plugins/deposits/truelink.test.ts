import AES from 'crypto-js/aes';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { GIFTLINK_KEY } from '../../../shared/giftlink-key';
import { giftLinkFor } from './domain/giftlink';
import { balanceOf, coinsOf, createPlayer, expectLedgerOk, type TestPlayer } from '../../test/support/deposits';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

/** What the SPA sends: the link encrypted with crypto-js AES under the shared key. */
const sealed = (link: string, key = GIFTLINK_KEY) => AES.encrypt(link, key).toString();
const send = (p: TestPlayer, link: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/wallet/truelink', headers: { ...p.headers, ...headers }, payload: { link } });
const voucher = (satang: number) => giftLinkFor(t.app.deposits.sims.gift!.issue(satang));

test('a voucher link encrypted with the key is redeemed and credited, with its statement line and coin', async () => {
  const p = await createPlayer(t.app);
  const res = await send(p, sealed(voucher(15000)));
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual({ status: 'SUCCESS', amount: 150, message: 'SUCCESS' });
  expect(await balanceOf(t.app, p.id)).toBe(15000);
  expect(await coinsOf(t.app, p.id)).toBe(1);
  const st = await t.app.db.selectFrom('statements').selectAll().where('player_id', '=', p.id).execute();
  expect(st).toMatchObject([{ statement_type: 'deposit', status: 'SUCCESS', from_account: 'TRUEMONEY', to_account: 'WALLET' }]);
  await expectLedgerOk(t.app);
});

test('not encrypted with the key, or not encrypted at all: TRUELINK_INVALID', async () => {
  const p = await createPlayer(t.app);
  const link = voucher(1000);
  for (const body of [sealed(link, 'another-key'), link, '', 'U2FsdGVkX1+garbage']) {
    const res = await send(p, body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'TRUELINK_INVALID' });
  }
  expect((await t.app.inject({ method: 'POST', url: '/api/wallet/truelink', headers: p.headers, payload: {} })).json()).toEqual({ message: 'TRUELINK_INVALID' });
  expect(await balanceOf(t.app, p.id)).toBe(0);
  // The voucher was not used up by those attempts.
  expect((await send(p, sealed(link))).statusCode).toBe(200);
});

test('not a gift-voucher link: TRUELINK_INVALID', async () => {
  const p = await createPlayer(t.app);
  for (const link of ['https://example.com/campaign/?v=abcdefghij12', 'https://gift.truemoney.com/campaign/?v=x', 'hello']) {
    expect((await send(p, sealed(link))).json()).toEqual({ message: 'TRUELINK_INVALID' });
  }
  // A well-formed link the redeemer does not know.
  expect((await send(p, sealed(giftLinkFor('UnknownVoucher123')))).json()).toEqual({ message: 'TRUELINK_INVALID' });
});

test('a voucher once: reused, by anyone or concurrently, is TRUELINK_DUPLICATE', async () => {
  const p = await createPlayer(t.app);
  const other = await createPlayer(t.app);
  const link = voucher(5000);
  expect((await send(p, sealed(link))).statusCode).toBe(200);
  for (const who of [p, other]) {
    const res = await send(who, sealed(link)); // a fresh ciphertext of the same link
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'TRUELINK_DUPLICATE' });
  }
  const racing = voucher(7000);
  const answers = await Promise.all(Array.from({ length: 5 }, () => send(other, sealed(racing))));
  expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
  expect(await balanceOf(t.app, p.id)).toBe(5000);
  expect(await balanceOf(t.app, other.id)).toBe(7000);
  await expectLedgerOk(t.app);
});

test('below the 2-baht minimum nothing is redeemed; an outage can be retried', async () => {
  const p = await createPlayer(t.app);
  const small = voucher(199);
  expect((await send(p, sealed(small))).json()).toEqual({ message: 'TRUELINK_INVALID' });
  expect(await t.app.deposits.sims.gift!.inspect(small.split('v=')[1])).toMatchObject({ ok: true }); // still unredeemed
  const link = voucher(200);
  t.app.deposits.sims.gift!.failNext = 1;
  const down = await send(p, sealed(link));
  expect(down.statusCode).toBe(503);
  expect(down.json()).toEqual({ message: 'UNKNOW_ERROR' });
  expect((await send(p, sealed(link))).json()).toEqual({ status: 'SUCCESS', amount: 2, message: 'SUCCESS' });
  expect(await balanceOf(t.app, p.id)).toBe(200);
});

test('an Idempotency-Key replays the first answer without redeeming again', async () => {
  const p = await createPlayer(t.app);
  const body = sealed(voucher(3000));
  const first = await send(p, body, { 'idempotency-key': 'gift-1' });
  const again = await send(p, body, { 'idempotency-key': 'gift-1' });
  expect(first.json()).toEqual(again.json());
  expect(again.statusCode).toBe(200);
  expect(await balanceOf(t.app, p.id)).toBe(3000);
});
