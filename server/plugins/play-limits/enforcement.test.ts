import AES from 'crypto-js/aes';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { gameBalances, walletBalance } from '../../ledger';
import { nowIso } from '../../db';
import type { PlayLimitKind, RestrictionKind, RestrictionPeriod } from '../../db/schema-play';
import { GIFTLINK_KEY } from '../../../shared/giftlink-key';
import { giftLinkFor } from '../deposits/domain/giftlink';
import { makeSlipPng } from '../deposits/domain/slip-image';
import { makeTransfer, slipFor } from '../../simulators/demo-bank/bank-service';
import { createPlayer, eventId, expectLedgerOk, multipart, signedEvent, type TestPlayer } from '../../test/support/deposits';

/**
 * Issue 15: the limits and restrictions where money moves (docs/deposits.md "Holds", docs/game-provider.md
 * "Loss limits"), through the routes on the engine under test. Limits and restrictions are written as rows of the
 * contract's tables (the play-limits routes have their own suite); the ledger audit runs after each test.
 */
let t: WalletTestApp;
const realNow = () => new Date();
beforeAll(async () => {
  t = await buildWalletTestApp();
});
afterEach(async () => {
  t.app.clock.now = realNow;
  await expectLedgerOk(t.app);
});
afterAll(() => t.close());

const HOUR = 3600_000;
type Headers = { authorization: string };
type Player = { id: number; headers: Headers };

async function setLimit(playerId: number, kind: PlayLimitKind, value: number) {
  const row = { player_id: playerId, kind, value, pending_set: 0, pending_value: null, pending_at: null, updated_at: nowIso() };
  await t.app.db
    .insertInto('play_limits')
    .values(row)
    .onConflict((oc) => oc.columns(['player_id', 'kind']).doUpdateSet({ value, pending_set: 0, pending_value: null, pending_at: null }))
    .execute();
}

async function restrict(playerId: number, kind: RestrictionKind, period: RestrictionPeriod, endsInMs: number) {
  const now = t.app.clock.now();
  await t.app.db
    .insertInto('play_restrictions')
    .values({ player_id: playerId, kind, period, starts_at: nowIso(now), ends_at: nowIso(new Date(now.getTime() + endsInMs)), created_at: nowIso(now) })
    .execute();
}

let round = 0;
/** A settled round from the providers' bet feed (satang), played `hoursAgo` before now. */
async function betRound(playerId: number, bet: number, win: number, hoursAgo = 0) {
  const at = nowIso(new Date(Date.now() - hoursAgo * HOUR));
  await t.app.db
    .insertInto('bet_rounds')
    .values({ game_code: 'pg', round_id: `r${process.pid}-${++round}`, username: `pw${playerId}`, player_id: playerId, bet, win, played_at: at, user_bonus_id: null, refund_id: null, created_at: at })
    .execute();
}

const inject = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, headers: Headers, payload?: object) => t.app.inject({ method, url, headers, payload });
const transfer = (p: Player, from: string, to: string, amount: number) => inject('POST', '/api/wallet/transfer', p.headers, { from, to, amount });
const createQr = (p: Player, amount: number, bank = 'KBANK') => inject('POST', `/api/qrcode/${bank}`, p.headers, { amount });
const payQr = (qrcodeId: string, amount: number) => t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qrcodeId, amount }));
const sealed = (link: string) => AES.encrypt(link, GIFTLINK_KEY).toString();
const gift = () => t.app.deposits.sims.gift!;
const voucher = (satang: number) => giftLinkFor(gift().issue(satang));
const sendGift = (p: Player, link: string) => inject('POST', '/api/wallet/truelink', p.headers, { link: sealed(link) });
const voucherIdOf = (link: string) => link.split('v=')[1];
const holdsOf = (playerId: number) => t.app.db.selectFrom('deposit_holds').selectAll().where('player_id', '=', playerId).execute();
const statementsOf = (playerId: number) => t.app.db.selectFrom('statements').selectAll().where('player_id', '=', playerId).orderBy('id').execute();

async function uploadSlip(p: TestPlayer, amount: string) {
  const made = await makeTransfer(t.app, { playerId: p.id, amount, receiver: 'account', minutesAgo: 0 });
  if (!made.ok) throw new Error(made.error);
  const bytes = makeSlipPng((await slipFor(t.app, made.transRef))!);
  const send = () => {
    const body = multipart([{ name: 'file', filename: 'slip.png', contentType: 'image/png', data: bytes }]);
    return t.app.inject({ method: 'POST', url: '/api/wallet/slip', headers: { ...p.headers, 'content-type': body.contentType }, payload: body.payload });
  };
  return { ref: made.transRef, send };
}

describe('deposit limits', () => {
  test('a QR is refused at creation when it would pass a deposit limit; the refusal leaves the live QR alone', async () => {
    const p = await createPlayer(t.app);
    await setLimit(p.id, 'deposit_day', 100_00);
    const first = await createQr(p, 100);
    expect(first.statusCode).toBe(200);
    const over = await createQr(p, 100.01);
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ message: 'DEPOSIT_LIMIT', hasQrcode: false });
    // The live QR was not replaced by the refused one.
    expect((await inject('GET', '/api/qrcode/KBANK', p.headers)).json()).toMatchObject({ hasQrcode: true, qrcodeId: first.json().qrcodeId });
    expect((await payQr(first.json().qrcodeId, 100)).json().outcome).toBe('CREDITED');
    const next = await createQr(p, 1);
    expect(next.json()).toMatchObject({ message: 'DEPOSIT_LIMIT' });
    // The gateway's channels are refused before the gateway is asked.
    expect((await createQr(p, 100, 'WW')).json()).toMatchObject({ message: 'DEPOSIT_LIMIT' });
    expect(await t.app.db.selectFrom('qr_deposits').select('id').where('player_id', '=', p.id).execute()).toHaveLength(1);
  });

  test('windows are rolling: a day later the day limit has room again, the week and month limits still count', async () => {
    const p = await createPlayer(t.app);
    await setLimit(p.id, 'deposit_day', 100_00);
    await setLimit(p.id, 'deposit_week', 150_00);
    await setLimit(p.id, 'deposit_month', 1_000_00);
    const qr = (await createQr(p, 100)).json();
    expect((await payQr(qr.qrcodeId, 100)).json().outcome).toBe('CREDITED');
    t.app.clock.now = () => new Date(Date.now() + 25 * HOUR);
    expect((await createQr(p, 50.01)).json()).toMatchObject({ message: 'DEPOSIT_LIMIT' }); // week: 100 + 50.01 > 150
    expect((await createQr(p, 50)).statusCode).toBe(200);
    t.app.clock.now = () => new Date(Date.now() + 8 * 24 * HOUR);
    expect((await createQr(p, 100)).statusCode).toBe(200);
    expect((await createQr(p, 900.01)).json()).toMatchObject({ message: 'DEPOSIT_LIMIT' }); // month: 100 + 900.01 > 1,000
  });

  test('a gift link beyond a limit is refused before the redeemer: the voucher is not taken and can be sent later', async () => {
    const p = await createPlayer(t.app);
    await setLimit(p.id, 'deposit_day', 100_00);
    const link = voucher(100_01);
    const res = await sendGift(p, link);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'DEPOSIT_LIMIT' });
    expect(await gift().inspect(voucherIdOf(link))).toMatchObject({ ok: true }); // not redeemed
    expect(await t.app.db.selectFrom('gift_redemptions').select('id').where('player_id', '=', p.id).execute()).toEqual([]);
    expect(await walletBalance(t.app.db, p.id)).toBe(0);
    await setLimit(p.id, 'deposit_day', 200_00);
    expect((await sendGift(p, link)).json()).toEqual({ status: 'SUCCESS', amount: 100.01, message: 'SUCCESS' });
  });

  test('20 gift links at once against a limit that allows two: 2 credited, 18 DEPOSIT_LIMIT, those 18 vouchers not redeemed', async () => {
    const p = await createPlayer(t.app);
    await setLimit(p.id, 'deposit_day', 100_00);
    const links = Array.from({ length: 20 }, () => voucher(50_00));
    const answers = await Promise.all(links.map((l) => sendGift(p, l)));
    const ok = answers.flatMap((a, i) => (a.statusCode === 200 ? [i] : []));
    const refused = answers.flatMap((a, i) => (a.statusCode === 422 && a.json().message === 'DEPOSIT_LIMIT' ? [i] : []));
    expect(ok).toHaveLength(2);
    expect(refused).toHaveLength(18);
    expect(await walletBalance(t.app.db, p.id)).toBe(100_00);
    for (const i of refused) expect(await gift().inspect(voucherIdOf(links[i]))).toMatchObject({ ok: true });
    for (const i of ok) expect(await gift().inspect(voucherIdOf(links[i]))).toMatchObject({ ok: false });
    const rows = await t.app.db.selectFrom('gift_redemptions').select(['status', 'amount']).where('player_id', '=', p.id).execute();
    expect(rows.map((r) => [r.status, Number(r.amount)])).toEqual([
      ['SUCCESS', 50_00],
      ['SUCCESS', 50_00],
    ]);
    const lines = await statementsOf(p.id);
    expect(lines.filter((s) => s.statement_type === 'deposit' && s.status === 'SUCCESS')).toHaveLength(2);
    expect(await holdsOf(p.id)).toEqual([]);
  }, 60_000);

  test('a paid QR beyond the limit is held: hold row, statement IN_PROGRESS, QR in REVIEW, wallet unchanged', async () => {
    const p = await createPlayer(t.app);
    const qr = (await createQr(p, 300)).json();
    await setLimit(p.id, 'deposit_day', 200_00); // lowered after the QR was made: effective at once
    const paid = await payQr(qr.qrcodeId, 300);
    expect(paid.statusCode).toBe(200);
    expect(paid.json().outcome).toBe('DEPOSIT_LIMIT');
    expect(await walletBalance(t.app.db, p.id)).toBe(0);
    const holds = await holdsOf(p.id);
    expect(holds).toMatchObject([{ source: 'qr', ref_id: qr.qrcodeId, reason: 'DEPOSIT_LIMIT', status: 'HELD', currency: 'THB' }]);
    expect(Number(holds[0].amount)).toBe(300_00);
    const lines = await statementsOf(p.id);
    expect(lines).toMatchObject([{ statement_type: 'deposit', status: 'IN_PROGRESS', ref_type: 'hold', ref_id: holds[0].id, from_account: 'KBANK', to_account: 'WALLET' }]);
    expect(Number(lines[0].amount)).toBe(300_00);
    const row = await t.app.db.selectFrom('qr_deposits').selectAll().where('id', '=', qr.qrcodeId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'REVIEW', live_player_id: null });
    expect(Number(row.paid_amount)).toBe(300_00);
    // The event again changes nothing; the held QR does not count as deposited.
    expect((await payQr(qr.qrcodeId, 300)).json().outcome).toBe('QR_ALREADY_PAID');
    expect(await holdsOf(p.id)).toHaveLength(1);
    expect((await createQr(p, 200)).statusCode).toBe(200);
  });

  test('a slip beyond the limit is held: slip IN_PROGRESS with DEPOSIT_LIMIT and its reference claimed, nothing credited', async () => {
    const p = await createPlayer(t.app);
    await setLimit(p.id, 'deposit_week', 400_00);
    const s = await uploadSlip(p, '400.01');
    const res = await s.send();
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'DEPOSIT_LIMIT' });
    expect(await walletBalance(t.app.db, p.id)).toBe(0);
    const slip = await t.app.db.selectFrom('slips').selectAll().where('player_id', '=', p.id).executeTakeFirstOrThrow();
    expect(slip).toMatchObject({ status: 'IN_PROGRESS', note: 'DEPOSIT_LIMIT', reference: s.ref, reference_claim: s.ref });
    expect(Number(slip.amount)).toBe(400_01);
    const holds = await holdsOf(p.id);
    expect(holds).toMatchObject([{ source: 'slip', ref_id: slip.id, status: 'HELD', reason: 'DEPOSIT_LIMIT' }]);
    expect(await statementsOf(p.id)).toMatchObject([{ statement_type: 'deposit', status: 'IN_PROGRESS', ref_type: 'hold', ref_id: holds[0].id }]);
    // The same slip again: the reference is taken, no second hold.
    expect((await s.send()).json()).toEqual({ message: 'SLIP_REFNO_DUPLICATED' });
    expect(await holdsOf(p.id)).toHaveLength(1);
    // Within the limit a slip is credited as before.
    const fits = await uploadSlip(p, '400');
    expect((await fits.send()).json()).toMatchObject({ message: 'SUCCESS', slip: { status: 'SUCCESS' } });
    expect(await walletBalance(t.app.db, p.id)).toBe(400_00);
  });

  test('deposits and game transfers of one player at the same time: all answered, none deadlocked (PostgreSQL)', async () => {
    const p = await t.player({ balance: 500_00, games: ['pg'] });
    expect((await transfer(p, 'WALLET', 'pg', 100)).statusCode).toBe(200);
    await setLimit(p.id, 'deposit_day', 1_000_00);
    const answers = await Promise.all([
      ...Array.from({ length: 8 }, () => sendGift(p, voucher(20_00))),
      ...Array.from({ length: 8 }, () => transfer(p, 'pg', 'WALLET', 5)),
      ...Array.from({ length: 8 }, () => transfer(p, 'WALLET', 'pg', 5)),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual(Array(24).fill(200));
    expect(await walletBalance(t.app.db, p.id)).toBe(400_00 + 8 * 20_00);
    expect((await gameBalances(t.app.db, p.id)).get('pg')).toBe(100_00);
  }, 60_000);

  test('a gift whose redeemed amount no longer fits (the limit was lowered meanwhile) is held, not credited and not lost', async () => {
    const p = await createPlayer(t.app);
    await setLimit(p.id, 'deposit_day', 100_00);
    const link = voucher(80_00);
    const real = t.app.deposits.gift;
    t.app.deposits.gift = {
      inspect: (id) => real.inspect(id),
      redeem: async (id, mobile) => {
        await setLimit(p.id, 'deposit_day', 50_00);
        return real.redeem(id, mobile);
      },
    };
    try {
      const res = await sendGift(p, link);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: 'DEPOSIT_LIMIT' });
    } finally {
      t.app.deposits.gift = real;
    }
    expect(await walletBalance(t.app.db, p.id)).toBe(0);
    const row = await t.app.db.selectFrom('gift_redemptions').selectAll().where('player_id', '=', p.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'IN_PROGRESS', reason: 'DEPOSIT_LIMIT' });
    expect(Number(row.amount)).toBe(80_00);
    expect(await holdsOf(p.id)).toMatchObject([{ source: 'gift', ref_id: row.id, status: 'HELD' }]);
    expect(await statementsOf(p.id)).toMatchObject([{ statement_type: 'deposit', status: 'IN_PROGRESS', ref_type: 'hold', from_account: 'TRUEMONEY' }]);
  });
});

describe('through the limits routes', () => {
  test('a deposit limit of 100 set by the player: a QR of 100 is paid, the next one refused; a time-out then refuses the QR route, withdraw stays open', async () => {
    const p = await createPlayer(t.app);
    const set = await inject('PUT', '/api/limits', p.headers, { kind: 'depositDay', value: 100 });
    expect(set.statusCode).toBe(200);
    expect(set.json().limits.depositDay).toEqual({ value: 100, pending: null });
    const qr = (await createQr(p, 100)).json();
    expect((await payQr(qr.qrcodeId, 100)).json().outcome).toBe('CREDITED');
    expect((await inject('GET', '/api/limits', p.headers)).json().usage).toMatchObject({ depositDay: 100, depositWeek: 100 });
    expect((await createQr(p, 100)).json()).toMatchObject({ message: 'DEPOSIT_LIMIT', hasQrcode: false });
    // Raising waits 24 h: the QR is still refused until then.
    expect((await inject('PUT', '/api/limits', p.headers, { kind: 'depositDay', value: 300 })).json().limits.depositDay.pending).toMatchObject({ value: 300 });
    expect((await createQr(p, 100)).json()).toMatchObject({ message: 'DEPOSIT_LIMIT' });
    const timeout = await inject('POST', '/api/limits/restriction', p.headers, { kind: 'TIMEOUT', period: '24h', confirm: true });
    expect(timeout.statusCode).toBe(200);
    expect((await createQr(p, 1)).json()).toEqual({ message: 'PLAY_TIMEOUT' });
    expect((await inject('POST', '/api/wallet/withdrawAll', p.headers, { amount: 100 })).statusCode).toBe(200);
    expect(await walletBalance(t.app.db, p.id)).toBe(0);
  });
});

describe('loss limits on transfers wallet -> game', () => {
  test('refused with LOSS_LIMIT when the loss so far plus the transfer would pass a limit; game -> wallet is never limited', async () => {
    const p = await t.player({ balance: 1_000_00, games: ['pg', 'pgslot'] });
    await betRound(p.id, 300_00, 100_00); // lost 200 today
    await betRound(p.id, 50_00, 60_00); // won 10
    await setLimit(p.id, 'loss_day', 250_00);
    const over = await transfer(p, 'WALLET', 'pg', 60.01); // 190 + 60.01 > 250
    expect(over.statusCode).toBe(422);
    expect(over.json()).toEqual({ message: 'LOSS_LIMIT' });
    expect(await walletBalance(t.app.db, p.id)).toBe(1_000_00);
    expect(await t.app.db.selectFrom('game_transfers').select('id').where('player_id', '=', p.id).execute()).toEqual([]);
    expect(await statementsOf(p.id)).toEqual([]);
    expect((await transfer(p, 'WALLET', 'pg', 60)).statusCode).toBe(200);
    expect((await transfer(p, 'WALLET', 'pg', 60.01)).json()).toEqual({ message: 'LOSS_LIMIT' });
    expect((await inject('POST', '/api/wallet/transferAll', p.headers, { to: 'pgslot' })).json()).toEqual({ message: 'LOSS_LIMIT' });
    // game -> game moves money into a game: refused before anything moves.
    expect((await transfer(p, 'pg', 'pgslot', 60.01)).json()).toEqual({ message: 'LOSS_LIMIT' });
    expect((await gameBalances(t.app.db, p.id)).get('pg')).toBe(60_00);
    const back = await transfer(p, 'pg', 'WALLET', 60);
    expect(back.statusCode).toBe(200);
    expect(await walletBalance(t.app.db, p.id)).toBe(1_000_00);
  });

  test('rolling windows: an older loss counts in the week, not the day; a net win is no loss', async () => {
    const p = await t.player({ balance: 500_00, games: ['pg'] });
    await betRound(p.id, 200_00, 0, 48); // lost 200 two days ago
    await setLimit(p.id, 'loss_day', 100_00);
    expect((await transfer(p, 'WALLET', 'pg', 100)).statusCode).toBe(200);
    await setLimit(p.id, 'loss_week', 250_00);
    expect((await transfer(p, 'WALLET', 'pg', 50.01)).json()).toEqual({ message: 'LOSS_LIMIT' });
    expect((await transfer(p, 'WALLET', 'pg', 50)).statusCode).toBe(200);

    const winner = await t.player({ balance: 500_00, games: ['pg'] });
    await betRound(winner.id, 100_00, 400_00);
    await setLimit(winner.id, 'loss_month', 200_00);
    expect((await transfer(winner, 'WALLET', 'pg', 200.01)).json()).toEqual({ message: 'LOSS_LIMIT' }); // a win does not raise the limit
    expect((await transfer(winner, 'WALLET', 'pg', 200)).statusCode).toBe(200);
  });

  test('parallel transfers under a loss limit: each is checked on its own amount (the loss feed is what accumulates)', async () => {
    const p = await t.player({ balance: 1_000_00, games: ['pg'] });
    await betRound(p.id, 100_00, 0);
    await setLimit(p.id, 'loss_day', 150_00);
    const answers = await Promise.all([50, 50.01, 50, 60].map((a) => transfer(p, 'WALLET', 'pg', a)));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 422, 200, 422]);
    expect(await walletBalance(t.app.db, p.id)).toBe(900_00);
  });
});

/** Every route that deposits, moves money into a game, opens or launches a game, takes a bonus, spins or claims. */
const PLAY_ROUTES = [
  'POST /api/qrcode/:code',
  'POST /api/wallet/slip',
  'POST /api/wallet/truelink',
  'GET /api/wallet/activate/:slotCode',
  'GET /api/wallet/account/:slotCode',
  'GET /api/wallet/resetpassword/:slotCode',
  'POST /api/wallet/transferAll',
  'GET /api/autoLogin/:game/:username',
  'GET /api/autoLogin/:game/:username/:password',
  'GET /api/bonus/activate/:code',
  'GET /api/promotion/activate/:code',
  'GET /api/refund/receive',
  'GET /api/refund/addWallet',
  'POST /api/spinwheel/spin',
  'POST /api/spinwheel/coupon/claim',
  'GET /api/invite/bonus',
  // A seamless game's launch (docs/seamless-wallet.md): the game session token it writes is what bets are taken with.
  'GET /api/seamless/launch/:code',
].sort();

const PARAMS: Record<string, string> = { code: 'KBANK', slotCode: 'pg', game: 'pg', username: 'pw1', password: 'secret' };
const BODIES: Record<string, object> = {
  'POST /api/qrcode/:code': { amount: 10 },
  'POST /api/wallet/truelink': { link: 'x' },
  'POST /api/wallet/transferAll': { to: 'pg' },
  'POST /api/spinwheel/coupon/claim': { couponId: 1 },
};
const callRoute = (route: string, headers: Headers) => {
  const [method, url] = route.split(' ') as ['GET' | 'POST', string];
  return inject(method, url.replace(/:(\w+)/g, (_m, k: string) => PARAMS[k]), headers, method === 'POST' ? (BODIES[route] ?? {}) : undefined);
};

describe('time-out, self-exclusion and the session limit', () => {
  const catalogued = () =>
    t.app.routeCatalogue
      .filter((r) => r.play)
      .map((r) => `${r.method} ${r.url}`)
      .sort();

  test('the route catalogue marks exactly the play routes', () => {
    expect(catalogued()).toEqual(PLAY_ROUTES);
  });

  /** A player with money in the wallet and in a game, so that the open routes have something to do. */
  async function funded() {
    const p = await t.player({ balance: 1_000_00, games: ['pg'] });
    expect((await transfer(p, 'WALLET', 'pg', 200)).statusCode).toBe(200);
    return p;
  }

  async function expectOpenRoutes(p: Player) {
    expect((await inject('GET', '/api/wallet', p.headers)).statusCode).toBe(200);
    expect((await inject('POST', '/api/statement', p.headers, { page: 1, limit: 10 })).statusCode).toBe(200);
    expect((await inject('GET', '/api/bonus', p.headers)).statusCode).toBe(200);
    expect((await transfer(p, 'pg', 'WALLET', 100)).statusCode).toBe(200);
    const w = await inject('POST', '/api/wallet/withdrawAll', p.headers, { amount: 100 });
    expect(w.statusCode).toBe(200);
    expect(w.json()).toMatchObject({ amount: 100 });
  }

  for (const [kind, period, code] of [
    ['TIMEOUT', '24h', 'PLAY_TIMEOUT'],
    ['EXCLUSION', '6m', 'SELF_EXCLUDED'],
  ] as const) {
    test(`${kind}: every play route answers 403 ${code}, and transfers into a game too; balance, statement, game -> wallet and withdraw stay open`, async () => {
      const p = await funded();
      await restrict(p.id, kind, period, 24 * HOUR);
      for (const route of new Set([...catalogued(), ...PLAY_ROUTES])) {
        const res = await callRoute(route, p.headers);
        expect({ route, status: res.statusCode, body: res.json() }).toEqual({ route, status: 403, body: { message: code } });
      }
      expect((await transfer(p, 'WALLET', 'pg', 1)).json()).toEqual({ message: code });
      await expectOpenRoutes(p);
      expect(await walletBalance(t.app.db, p.id)).toBe(800_00); // 1,000 - 200 into the game + 100 back - 100 withdrawn
      expect((await gameBalances(t.app.db, p.id)).get('pg')).toBe(100_00);
      // Once it has ended, play is open again.
      t.app.clock.now = () => new Date(Date.now() + 24 * HOUR + 60_000);
      expect((await transfer(p, 'WALLET', 'pg', 1)).statusCode).toBe(200);
      expect((await inject('GET', `/api/autoLogin/pg/pw${p.id}`, p.headers)).statusCode).toBe(200);
    });
  }

  test('the latest-ending restriction wins: an exclusion during a time-out answers SELF_EXCLUDED', async () => {
    const p = await funded();
    await restrict(p.id, 'TIMEOUT', '24h', 24 * HOUR);
    await restrict(p.id, 'EXCLUSION', '6m', 180 * 24 * HOUR);
    expect((await callRoute('POST /api/spinwheel/spin', p.headers)).json()).toEqual({ message: 'SELF_EXCLUDED' });
  });

  test('past the session limit, play routes answer 403 SESSION_LIMIT; the wallet, game -> wallet and withdraw stay open; a new session plays', async () => {
    const p = await funded();
    await setLimit(p.id, 'session', 5);
    const sessionStarted = (msAgo: number) =>
      t.app.db.updateTable('sessions').set({ created_at: nowIso(new Date(Date.now() - msAgo)) }).where('player_id', '=', p.id).execute();
    await sessionStarted(4 * 60_000);
    expect((await transfer(p, 'WALLET', 'pg', 1)).statusCode).toBe(200);
    await sessionStarted(5 * 60_000 + 1_000);
    for (const route of PLAY_ROUTES) {
      const res = await callRoute(route, p.headers);
      expect({ route, status: res.statusCode, body: res.json() }).toEqual({ route, status: 403, body: { message: 'SESSION_LIMIT' } });
    }
    expect((await transfer(p, 'WALLET', 'pg', 1)).json()).toEqual({ message: 'SESSION_LIMIT' });
    await expectOpenRoutes(p);
    const fresh = { id: p.id, headers: { authorization: `Bearer ${await t.app.tokens.issue(p.id)}` } };
    expect((await transfer(fresh, 'WALLET', 'pg', 1)).statusCode).toBe(200);
  });
});
