import type { Socket } from 'socket.io-client';
import { creditWallet } from '../ledger';
import { buildTestApp, testEngine, type TestApp } from '../test/support/helper';
import { createPlayer, eventId, signedEvent, type TestPlayer } from '../test/support/deposits';
import { connected, join, listen, next, record, socketTo } from '../test/support/chat';

/**
 * Live balance with real sockets: a committed ledger entry reaches its player's room as `wallet {reason}`, after
 * the commit, and only that player's; a rolled-back one never does. On PostgreSQL also the case ids make hard:
 * an entry whose transaction commits after a later entry's is still announced.
 */

let t: TestApp;
let url: string;
const sockets: Socket[] = [];
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0', CHAT_PREFIX: 'wp-test' });
  url = await listen(t.app);
});
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});
afterAll(async () => t?.close());

type WalletEvent = { reason?: string };

/** A socket of the player that joined their room, and every `wallet` event it gets. */
async function watch(p: TestPlayer) {
  const socket = socketTo(url, { token: p.token });
  sockets.push(socket);
  await connected(socket);
  expect(await join(socket, `wp-test-${p.id}`)).toEqual({ ok: true });
  return { socket, events: record<WalletEvent>(socket, 'wallet') };
}

async function liveQr(p: TestPlayer, amount: number): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/qrcode/KBANK', headers: p.headers, payload: { amount } });
  expect(res.statusCode).toBe(200);
  return res.json().qrcodeId;
}

const credit = (playerId: number, kind: string, amount = 100, from: 'bonus_budget' | 'invite_budget' = 'bonus_budget') =>
  t.app.db.transaction().execute((trx) => creditWallet(trx, { playerId, amount, from, kind, reference: `${kind}:${eventId()}` }));

test("a QR paid through the payment webhook reaches the player's socket, and no other player's", async () => {
  const a = await createPlayer(t.app);
  const b = await createPlayer(t.app);
  const [wa, wb] = await Promise.all([watch(a), watch(b)]);
  const qr = await liveQr(a, 150);
  const pushed = next<WalletEvent>(wa.socket, 'wallet');
  const res = await t.app.inject(signedEvent({ id: eventId(), type: 'qr.paid', reference: qr, amount: 150 }));
  expect(res.json()).toMatchObject({ outcome: 'CREDITED' });
  expect(await pushed).toEqual({ reason: 'deposit' });
  // The money is there when the event arrives (it was committed before).
  const wallet = await t.app.inject({ method: 'GET', url: '/api/wallet', headers: a.headers });
  expect(wallet.json().wallet.amount).toBe(150);
  // B's socket hears its own credit only: the deposit for A never reached it.
  const bPushed = next<WalletEvent>(wb.socket, 'wallet');
  await credit(b.id, 'bonus');
  expect(await bPushed).toEqual({ reason: 'bonus' });
  expect(wb.events).toEqual([{ reason: 'bonus' }]);
  expect(wa.events).toEqual([{ reason: 'deposit' }]);
});

test('a rolled-back transaction pushes nothing', async () => {
  const a = await createPlayer(t.app);
  const wa = await watch(a);
  await expect(
    t.app.db.transaction().execute(async (trx) => {
      await creditWallet(trx, { playerId: a.id, amount: 500, from: 'bonus_budget', kind: 'rolledback', reference: `rb:${eventId()}` });
      throw new Error('roll back');
    }),
  ).rejects.toThrow('roll back');
  // Passes after the rollback: a committed credit is the marker that the watcher has read past it.
  const pushed = next<WalletEvent>(wa.socket, 'wallet');
  await credit(a.id, 'coupon');
  expect(await pushed).toEqual({ reason: 'coupon' });
  expect(wa.events).toEqual([{ reason: 'coupon' }]);
});

test('a withdrawal opened and then failed through the webhook pushes each step', async () => {
  const a = await createPlayer(t.app);
  const wa = await watch(a);
  const funded = next<WalletEvent>(wa.socket, 'wallet');
  await t.app.db.transaction().execute((trx) => creditWallet(trx, { playerId: a.id, amount: 20_000, from: 'deposits_in_transit', kind: 'deposit', reference: `dep:${eventId()}` }));
  expect(await funded).toEqual({ reason: 'deposit' });
  const opened = next<WalletEvent>(wa.socket, 'wallet');
  const res = await t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: a.headers, payload: { amount: 150 } });
  expect(res.statusCode).toBe(200);
  expect(await opened).toEqual({ reason: 'withdrawal' });
  const failed = next<WalletEvent>(wa.socket, 'wallet');
  const settle = await t.app.inject(signedEvent({ id: eventId(), type: 'payout.failed', reference: res.json().withdrawalId, amount: 150 }));
  expect(settle.json()).toMatchObject({ outcome: 'PAYOUT_FAILED' });
  expect(await failed).toEqual({ reason: 'withdrawal_reversal' });
});

// PostgreSQL allots ids at insert: an entry whose transaction is still open when a later one commits.
(testEngine() === 'postgres' ? test : test.skip)('an entry committed after a later-numbered one is still pushed (PostgreSQL)', async () => {
  const a = await createPlayer(t.app);
  const b = await createPlayer(t.app);
  const [wa, wb] = await Promise.all([watch(a), watch(b)]);
  let release!: () => void;
  const hold = new Promise<void>((r) => (release = r));
  let posted!: () => void;
  const isPosted = new Promise<void>((r) => (posted = r));
  const slow = t.app.db.transaction().execute(async (trx) => {
    const entry = await creditWallet(trx, { playerId: a.id, amount: 100, from: 'refund_budget', kind: 'slow', reference: `slow:${eventId()}` });
    posted();
    await hold;
    return entry;
  });
  try {
    await isPosted;
    // Another house account than the open transaction's: B's credit does not wait for A's lock.
    const bPushed = next<WalletEvent>(wb.socket, 'wallet');
    const later = await credit(b.id, 'fast', 100, 'invite_budget');
    expect(await bPushed).toEqual({ reason: 'fast' });
    // Nothing for A while its transaction is open; then its entry, with the lower id, arrives.
    expect(wa.events).toEqual([]);
    const aPushed = next<WalletEvent>(wa.socket, 'wallet');
    release();
    const earlier = await slow;
    expect(earlier.id).toBeLessThan(later.id);
    expect(await aPushed).toEqual({ reason: 'slow' });
  } finally {
    release();
  }
});
