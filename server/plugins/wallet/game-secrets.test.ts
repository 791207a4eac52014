import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { nowIso } from '../../db';
import { seedBase } from '../../db/seed';
import { freshDb, testConfig, type TestDb } from '../../test/support/helper';
import { PayoutSimulator } from '../../adapters/payouts';
import { insertPlayer } from '../../test/support/ledger';
import { isSealed, openSecret, sealSecret } from '../../lib/secret-box';
import { sealPlaintextGameSecrets } from './game-secrets';

/**
 * Issue 11: game account passwords (and the provider's event object, which repeats them) are stored sealed
 * with GAME_SECRET_KEY and opened only to show their owner.
 */
const KEY = crypto.randomBytes(32);
let db: TestDb;
let app: FastifyInstance;
const logs: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  db = await freshDb();
  await seedBase(db.db);
  app = await buildApp(testConfig(db.dataDir, { GAME_SECRET_KEY: KEY.toString('base64') }), {
    database: db,
    logger: { level: 'warn', stream: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) } },
    wallet: { payoutAdapter: new PayoutSimulator({ delayMs: null }), wallet: { reconcileIntervalMs: 0, reconcileAtStart: false } },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.dispose();
});
beforeEach(() => {
  logs.length = 0;
});

type H = { authorization: string };
const get = (url: string, headers?: H) => app.inject({ method: 'GET', url, headers });

async function player(games: string[] = []): Promise<{ id: number; headers: H }> {
  const id = await insertPlayer(db.db);
  const headers = { authorization: `Bearer ${await app.tokens.issue(id)}` };
  for (const g of games) expect((await get(`/api/wallet/activate/${g}`, headers)).statusCode).toBe(200);
  return { id, headers };
}

const stored = (playerId: number, game: string) =>
  db.db.selectFrom('game_accounts').select(['password', 'event']).where('player_id', '=', playerId).where('game_code', '=', game).executeTakeFirstOrThrow();
const providerPassword = async (playerId: number, game: string) =>
  (await app.gameSim!.store.selectFrom('sim_players').select('password').where('player_id', '=', playerId).where('game_code', '=', game).executeTakeFirstOrThrow()).password;

test('the stored password is sealed, never the plaintext, while the owner is still shown it', async () => {
  const p = await player(['pg', 'huayhd']);
  for (const game of ['pg', 'huayhd']) {
    const plain = await providerPassword(p.id, game);
    const row = await stored(p.id, game);
    expect(row.password).not.toBe(plain);
    expect(row.password).not.toContain(plain);
    expect(isSealed(row.password)).toBe(true);
    expect(openSecret(KEY, row.password)).toBe(plain);
    const res = await get(`/api/wallet/account/${game}`, p.headers);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: `pw${p.id}`, password: plain });
  }
  // The provider's event object repeats the password: sealed as well, shown to the owner as an object.
  const ev = await stored(p.id, 'huayhd');
  expect(ev.event).not.toBeNull();
  expect(ev.event).not.toContain(await providerPassword(p.id, 'huayhd'));
  expect((await get('/api/wallet/account/huayhd', p.headers)).json().event).toEqual({
    formState: { username: `pw${p.id}`, password: await providerPassword(p.id, 'huayhd') },
  });
});

test("another player cannot read a player's game password", async () => {
  const p = await player(['usun']);
  const q = await player();
  const plain = await providerPassword(p.id, 'usun');
  const theirs = await get('/api/wallet/account/usun', q.headers);
  expect([theirs.statusCode, theirs.json()]).toEqual([404, { message: 'SLOT_NO_ACCOUNT' }]);
  const link = await get(`/api/autoLogin/usun/pw${p.id}`, q.headers);
  expect([link.statusCode, link.json()]).toEqual([404, { message: 'SLOT_NO_ACCOUNT' }]);
  expect((await get('/api/wallet', q.headers)).body).not.toContain(plain);
  // The owner's own wallet view carries it in the password game's web link.
  const mine = (await get('/api/wallet', p.headers)).json().slots.find((s: { code: string }) => s.code === 'usun');
  expect(mine.web).toBe(`/api/autoLogin/usun/pw${p.id}/${encodeURIComponent(plain)}`);
  expect((await get(`/api/autoLogin/usun/pw${p.id}`, p.headers)).statusCode).toBe(200);
});

test('a reset password is stored sealed too', async () => {
  const p = await player(['pg']);
  const res = await get('/api/wallet/resetpassword/pg', p.headers);
  expect(res.statusCode).toBe(200);
  const row = await stored(p.id, 'pg');
  expect(row.password).not.toContain(res.json().password);
  expect(openSecret(KEY, row.password)).toBe(res.json().password);
  expect((await get('/api/wallet/account/pg', p.headers)).json().password).toBe(res.json().password);
});

test('a value that does not open with the key (key changed, row altered) answers INTERNAL_SERVER_ERROR, logged without the value; reset recovers', async () => {
  const p = await player(['usun']);
  const foreign = sealSecret(crypto.randomBytes(32), 'written-with-another-key');
  await db.db.updateTable('game_accounts').set({ password: foreign }).where('player_id', '=', p.id).where('game_code', '=', 'usun').execute();

  const creds = await get('/api/wallet/account/usun', p.headers);
  expect([creds.statusCode, creds.json()]).toEqual([500, { message: 'INTERNAL_SERVER_ERROR' }]);
  const link = await get(`/api/autoLogin/usun/pw${p.id}`, p.headers);
  expect([link.statusCode, link.json()]).toEqual([500, { message: 'INTERNAL_SERVER_ERROR' }]);
  const logged = logs.filter((l) => l.msg === 'game account secret does not open with GAME_SECRET_KEY');
  expect(logged.length).toBeGreaterThanOrEqual(2);
  expect(logged[0]).toMatchObject({ level: 50, playerId: p.id, gameCode: 'usun' });
  expect(JSON.stringify(logs)).not.toContain(foreign);
  expect(JSON.stringify(logs)).not.toMatch(/\n\s+at /); // no stack trace

  // The wallet page still opens: that game's web link is left out.
  const view = await get('/api/wallet', p.headers);
  expect(view.statusCode).toBe(200);
  expect(view.json().slots.find((s: { code: string }) => s.code === 'usun')).toMatchObject({ isActive: true, web: null });

  // Resetting the password needs only the username: it stores a fresh sealed one and the account reads again.
  const reset = await get('/api/wallet/resetpassword/usun', p.headers);
  expect(reset.statusCode).toBe(200);
  expect((await get('/api/wallet/account/usun', p.headers)).json().password).toBe(reset.json().password);
});

test('rows written before encryption are sealed by the start-up step, once (idempotent)', async () => {
  const p = await player();
  const q = await player(['pg']);
  const now = nowIso();
  const event = JSON.stringify({ formState: { username: `legacy${p.id}`, password: 'Legacy-Pass1' } });
  await db.db
    .insertInto('game_accounts')
    .values([
      { player_id: p.id, game_code: 'pg', username: `legacy${p.id}`, password: 'Legacy-Pass1', event: null, created_at: now, updated_at: now },
      { player_id: p.id, game_code: 'huayhd', username: `legacyh${p.id}`, password: 'Legacy-Pass2', event, created_at: now, updated_at: now },
    ])
    .execute();
  const before = await stored(q.id, 'pg');

  expect(await sealPlaintextGameSecrets(db.db, KEY)).toBe(2);
  const pg = await stored(p.id, 'pg');
  const hd = await stored(p.id, 'huayhd');
  expect([isSealed(pg.password), pg.event]).toEqual([true, null]);
  expect(openSecret(KEY, pg.password)).toBe('Legacy-Pass1');
  expect(isSealed(hd.password) && isSealed(hd.event ?? '')).toBe(true);
  expect(JSON.parse(openSecret(KEY, hd.event ?? ''))).toEqual(JSON.parse(event));
  expect(await stored(q.id, 'pg')).toEqual(before); // already sealed: untouched

  expect(await sealPlaintextGameSecrets(db.db, KEY)).toBe(0);
  expect(await stored(p.id, 'pg')).toEqual(pg);
  expect((await get('/api/wallet/account/pg', p.headers)).json()).toEqual({ username: `legacy${p.id}`, password: 'Legacy-Pass1' });
  expect((await get('/api/wallet/account/huayhd', p.headers)).json()).toEqual({ username: `legacyh${p.id}`, password: 'Legacy-Pass2', event: JSON.parse(event) });
});

test('a long provider password still fits once sealed (the column is text on PostgreSQL too)', async () => {
  const p = await player(['pg']);
  const long = 'p'.repeat(200);
  const sealed = sealSecret(KEY, long);
  expect(sealed.length).toBeGreaterThan(128);
  await db.db.updateTable('game_accounts').set({ password: sealed, updated_at: nowIso() }).where('player_id', '=', p.id).where('game_code', '=', 'pg').execute();
  expect(openSecret(KEY, (await stored(p.id, 'pg')).password)).toBe(long);
});
