import { runAudit, walletBalance } from '../../ledger';
import { buildTestApp, type TestApp } from '../../test/support/helper';
import { betBody, rollbackBody, seamlessPlayer, signedCall, units, winBody, type SeamlessPlayer } from '../../test/support/seamless';

/**
 * Responsible play on the seamless wallet (docs/seamless-wallet.md "Limits", docs/responsible-play.md): a bet is refused
 * RS_ERROR_USER_DISABLED during a time-out or a self-exclusion, past the session limit (counted from the login session
 * the game was launched in) and for a player who is not active; RS_ERROR_LIMIT_REACHED past a loss limit. Wins and
 * rollbacks are always taken.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(async () => {
  expect((await runAudit(t.app.db)).violations).toEqual([]);
  await t.close();
});

const bet = async (body: Record<string, unknown>) => (await signedCall(t.app, '/transaction/bet', body)).body;
const limit = async (p: SeamlessPlayer, kind: string, value: number | null) => {
  const r = await t.app.inject({ method: 'PUT', url: '/api/limits', headers: p.headers, payload: { kind, value } });
  expect(r.statusCode).toBe(200);
};

test('a time-out refuses bets (RS_ERROR_USER_DISABLED, stored) and still takes the win and the rollback of a bet placed before', async () => {
  const p = await seamlessPlayer(t.app, { balance: 5_000 });
  const before = betBody(p, 1_000);
  const other = betBody(p, 500);
  expect((await bet(before)).status).toBe('RS_OK');
  expect((await bet(other)).status).toBe('RS_OK');
  const r = await t.app.inject({ method: 'POST', url: '/api/limits/restriction', headers: p.headers, payload: { kind: 'TIMEOUT', period: '24h', confirm: true } });
  expect(r.statusCode).toBe(200);
  const refused = betBody(p, 100);
  expect(await bet(refused)).toMatchObject({ status: 'RS_ERROR_USER_DISABLED', balance: units(3_500) });
  expect(await bet({ ...refused, request_uuid: 'retry' })).toMatchObject({ status: 'RS_ERROR_USER_DISABLED', request_uuid: 'retry' });
  expect((await signedCall(t.app, '/transaction/win', winBody(p, before, 2_000))).body).toMatchObject({ status: 'RS_OK', balance: units(5_500) });
  expect((await signedCall(t.app, '/transaction/rollback', rollbackBody(p, other))).body).toMatchObject({ status: 'RS_OK', balance: units(6_000) });
  expect(await walletBalance(t.app.db, p.id)).toBe(6_000);
});

test('a self-exclusion refuses bets', async () => {
  const p = await seamlessPlayer(t.app, { balance: 5_000 });
  const r = await t.app.inject({ method: 'POST', url: '/api/limits/restriction', headers: p.headers, payload: { kind: 'EXCLUSION', period: '6m', confirm: true } });
  expect(r.statusCode).toBe(200);
  expect((await bet(betBody(p, 100))).status).toBe('RS_ERROR_USER_DISABLED');
  expect(await walletBalance(t.app.db, p.id)).toBe(5_000);
});

test('a player who is not active cannot bet', async () => {
  const p = await seamlessPlayer(t.app, { balance: 5_000 });
  await t.app.db.updateTable('players').set({ status: 'suspended' }).where('id', '=', p.id).execute();
  expect((await bet(betBody(p, 100))).status).toBe('RS_ERROR_USER_DISABLED');
  expect(await walletBalance(t.app.db, p.id)).toBe(5_000);
});

test('the session limit counts from the login session the game was launched in', async () => {
  const p = await seamlessPlayer(t.app, { balance: 5_000 });
  await limit(p, 'sessionMinutes', 60);
  expect((await bet(betBody(p, 100))).status).toBe('RS_OK');
  const real = t.app.clock.now;
  try {
    // 61 minutes into the session the game was launched in: that session is past its limit.
    const later = Date.now() + 61 * 60_000;
    t.app.clock.now = () => new Date(later);
    const refused = betBody(p, 100);
    expect(await bet(refused)).toMatchObject({ status: 'RS_ERROR_USER_DISABLED', balance: units(4_900) });
    // A game token of a new login session (launched again after logging in) may bet.
    await t.app.db.updateTable('sessions').set({ created_at: new Date(later - 60_000).toISOString() }).where('id', '=', p.sessionId).execute();
    expect((await bet(betBody(p, 100))).status).toBe('RS_OK');
  } finally {
    t.app.clock.now = real;
  }
});

test('a loss limit refuses the bet that could pass it (RS_ERROR_LIMIT_REACHED); wins bring room back', async () => {
  const p = await seamlessPlayer(t.app, { balance: 20_000 });
  await limit(p, 'lossDay', 50); // baht: 5,000 satang
  const b1 = betBody(p, 3_000);
  expect((await bet(b1)).status).toBe('RS_OK');
  // 3,000 at stake in the open round + 3,000 more would be 6,000 lost at worst.
  const b2 = betBody(p, 3_000);
  expect(await bet(b2)).toMatchObject({ status: 'RS_ERROR_LIMIT_REACHED', balance: units(17_000) });
  expect((await bet(betBody(p, 2_000))).status).toBe('RS_OK');
  // The first round wins 3,000 back: 2,000 lost so far, room for 3,000 more (b2's retry is still its first answer).
  expect((await signedCall(t.app, '/transaction/win', winBody(p, b1, 3_000))).body.status).toBe('RS_OK');
  expect((await bet({ ...b2, request_uuid: 'again' })).status).toBe('RS_ERROR_LIMIT_REACHED');
  expect((await bet(betBody(p, 3_000))).status).toBe('RS_OK');
  expect(await walletBalance(t.app.db, p.id)).toBe(20_000 - 3_000 - 2_000 + 3_000 - 3_000);
});
