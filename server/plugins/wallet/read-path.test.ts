import { CompiledQuery } from 'kysely';
import pg from 'pg';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { ensureAccounts, walletAccount } from '../../ledger/accounts';
import { hs256 } from '../../lib/hs256';
import { steppedDuring } from '../../test/support/sqlite-statements';
import { GAMES_TTL_MS, cachedActiveGames, forgetActiveGames } from './repository';

/** The read path of issue 13: few statements per GET /api/wallet, a short-lived games cache, no cached session. */
describe('GET /api/wallet read path', () => {
  let t: WalletTestApp;
  beforeAll(async () => {
    t = await buildWalletTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers JSON in ASCII bytes (answer-json.ts): Thai text intact once parsed, its length counted in bytes', async () => {
    const p = await t.player({ games: ['pg'] });
    for (const url of ['/api/wallet', '/api/wallet/refresh/slot']) {
      const res = await t.app.inject({ method: 'GET', url, headers: p.headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
      expect([...res.rawPayload].every((byte) => byte < 0x7f)).toBe(true);
      const answer = JSON.parse(res.body);
      expect(answer.bankAccount.bank.nameTH).toMatch(/^[\u0E00-\u0E7F]+$/); // the bank's Thai name
      expect(answer.profile._id).toBe(String(p.id));
    }
  });

  const onSqlite = !process.env.DATABASE_URL;
  (onSqlite ? it : it.skip)('runs 1 SQL statement (the session, the player, balances, game accounts and invite figures)', async () => {
    const p = await t.player({ games: ['pg'] });
    await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers }); // games cache warm
    const { result: res, stepped } = await steppedDuring(() => t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers }));
    expect(res.statusCode).toBe(200);
    const seen = stepped.filter((x) => x.fromCall).map((x) => x.source); // not a background job's (the journal feed, the pollers)
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatch(/"sessions"/);
  });

  (onSqlite ? it : it.skip)('reads by index only: no statement of GET /api/wallet scans a table', async () => {
    const p = await t.player({ games: ['pg'] });
    const { result: res, stepped: seen } = await steppedDuring(() => t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers }));
    expect(res.statusCode).toBe(200);
    expect(seen.length).toBeGreaterThan(0);
    for (const { source, args } of seen) {
      const plan = await t.app.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`EXPLAIN QUERY PLAN ${source}`, args));
      // The asked (player, session) pairs (`json_each` over the statement's one JSON parameter) are read whole: that
      // is the list of asks, not a table.
      const scans = plan.rows.map((r) => r.detail).filter((d) => /^SCAN /.test(d) && !/^SCAN json_each VIRTUAL TABLE/.test(d));
      expect([source, scans]).toEqual([source, []]);
    }
  });

  it("shows every figure from its one statement: profile, wallet, each game's balance and account, invite figures", async () => {
    const p = await t.player({ balance: 50_000, games: ['pg'] });
    const db = t.app.db;
    await db.updateTable('ledger_accounts').set({ balance: 1_234 }).where('code', '=', `game:${p.id}:pg`).execute();
    // Three invitees: two deposited (one earning received, one open), one did not; an open earning in another currency is not counted.
    const invitees = [];
    for (let i = 0; i < 3; i++) {
      const id = await t.player();
      await db.updateTable('players').set({ inviter_id: p.id }).where('id', '=', id.id).execute();
      invitees.push(id.id);
    }
    const earning = (invitee: number, amount: number, currency = 'THB') => ({
      inviter_id: p.id, invitee_id: invitee, deposit_ref: `deposit:t${invitee}`, deposit_amount: amount * 10, amount, currency, percent_bp: 1000,
      note: null, bank_account_no: null, receipt_id: null, created_at: new Date().toISOString(), qualified_at: new Date().toISOString(), // receivable
    });
    await db.insertInto('invite_earnings').values([earning(invitees[0], 700), earning(invitees[1], 300, 'LAK')]).execute();

    const res = await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.profile._id).toBe(String(p.id));
    expect(body.wallet.amount).toBe(500);
    const pg = body.slots.find((s: { code: string }) => s.code === 'pg');
    expect(pg).toMatchObject({ isActive: true, amount: 12.34 });
    expect(pg.web).toMatch(/^\/api\/autoLogin\/pg\/[^/]+/);
    expect(body.slots.filter((s: { isActive: boolean }) => s.isActive)).toHaveLength(1);
    expect(body.invite).toEqual({ amount: 7, success: 2, fail: 1 });
  });

  it('drops a deactivated game once the cache TTL has passed', async () => {
    const db = t.app.db;
    forgetActiveGames(db);
    const before = await cachedActiveGames(db, 1_000_000);
    expect(before.some((g) => g.code === 'pg')).toBe(true);
    await db.updateTable('games').set({ active: 0 }).where('code', '=', 'pg').execute();
    try {
      // Within the TTL the cached list may still show it; once the TTL has passed it must not.
      const later = await cachedActiveGames(db, 1_000_000 + GAMES_TTL_MS);
      expect(later.some((g) => g.code === 'pg')).toBe(false);
    } finally {
      await db.updateTable('games').set({ active: 1 }).where('code', '=', 'pg').execute();
      forgetActiveGames(db);
    }
  });

  it('keeps the money fresh: a deposit shows on the very next read', async () => {
    const p = await t.player();
    await t.db.db.transaction().execute((trx) => ensureAccounts(trx, [walletAccount(p.id)], 'THB'));
    const a = await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers });
    expect(a.json().wallet.amount).toBe(0);
    await t.db.db.updateTable('ledger_accounts').set({ balance: 12_345 }).where('code', '=', `wallet:${p.id}`).execute();
    const b = await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers });
    expect(b.json().wallet.amount).toBe(123.45);
  });

  it("refuses in its one statement what app.authenticate refuses: another player's session, expired, inactive, gone, no player", async () => {
    const a = await t.player();
    const b = await t.player();
    const jwt = hs256(t.app.config.jwtSecret);
    const sessionOf = async (id: number) =>
      (await t.db.db.selectFrom('sessions').select('id').where('player_id', '=', id).where('revoked_at', 'is', null).executeTakeFirstOrThrow()).id;
    const iat = Math.floor(Date.now() / 1000);
    const tokenFor = (sub: number, jti: string) => ({ authorization: `Bearer ${jwt.sign({ sub: String(sub), jti, iat, exp: iat + 3600 })}` });
    const answer = async (headers: Record<string, string>) => {
      const res = await t.app.inject({ method: 'GET', url: '/api/wallet', headers });
      return `${res.statusCode} ${res.json().message ?? ''}`.trim();
    };
    expect(await answer(a.headers)).toMatch(/^200/);
    // A's id with B's session, and a player who is not there: both signed with the real key.
    expect(await answer(tokenFor(a.id, await sessionOf(b.id)))).toBe('401 invalid-token');
    expect(await answer(tokenFor(999_999, await sessionOf(a.id)))).toBe('401 invalid-token');
    await t.db.db.updateTable('sessions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('player_id', '=', b.id).execute();
    expect(await answer(b.headers)).toBe('401 EXPIRED_AUTH_TOKEN');
    await t.db.db.updateTable('players').set({ status: 'inactive' }).where('id', '=', a.id).execute();
    expect(await answer(a.headers)).toBe('401 INACTIVE_USER');
    await t.db.db.updateTable('players').set({ status: 'gone' }).where('id', '=', a.id).execute();
    expect(await answer(a.headers)).toMatch(/^410/);
  });

  it('answers reads asked together each with its own figures and refusals, from one statement for all', async () => {
    const jwt = hs256(t.app.config.jwtSecret);
    const iat = Math.floor(Date.now() / 1000);
    const tokenFor = (sub: number, jti: string) => ({ authorization: `Bearer ${jwt.sign({ sub: String(sub), jti, iat, exp: iat + 3600 })}` });
    const sessionOf = async (id: number) =>
      (await t.db.db.selectFrom('sessions').select('id').where('player_id', '=', id).where('revoked_at', 'is', null).executeTakeFirstOrThrow()).id;
    const players = [await t.player({ balance: 10_100 }), await t.player({ balance: 20_200 }), await t.player({ balance: 30_300, games: ['pg'] })];
    const revoked = await t.player({ balance: 40_400 });
    const mixed = tokenFor(players[0].id, await sessionOf(players[1].id));
    const missing = tokenFor(999_999, await sessionOf(players[2].id));
    await t.app.tokens.revokeAll(revoked.id);
    await t.app.inject({ method: 'GET', url: '/api/wallet', headers: players[0].headers }); // games cache warm

    // The statements that read the session: sent to PostgreSQL, or stepped by better-sqlite3.
    const sent: string[] = [];
    const submit = pg.Query.prototype.submit;
    pg.Query.prototype.submit = function (this: { text?: string }, ...a: unknown[]) {
      if (this.text?.includes('"sessions"')) sent.push(this.text);
      return (submit as (...x: unknown[]) => unknown).apply(this, a);
    } as typeof submit;
    let answers;
    try {
      const asks = [players[2], players[0], revoked, players[1]].map((p) => p.headers).concat([mixed, missing, players[0].headers]);
      const { result, stepped } = await steppedDuring(() => Promise.all(asks.map((headers) => t.app.inject({ method: 'GET', url: '/api/wallet', headers }))));
      answers = result;
      sent.push(...stepped.filter((x) => x.source.includes('"sessions"')).map((x) => x.source));
    } finally {
      pg.Query.prototype.submit = submit;
    }
    const seen = answers.map((r) => (r.statusCode === 200 ? `${r.json().profile._id} ${r.json().wallet.amount}` : `${r.statusCode} ${r.json().message}`));
    expect(seen).toEqual([
      `${players[2].id} 303`,
      `${players[0].id} 101`,
      '401 invalid-token',
      `${players[1].id} 202`,
      '401 invalid-token',
      '401 invalid-token',
      `${players[0].id} 101`,
    ]);
    expect(answers[0].json().slots.find((s: { code: string }) => s.code === 'pg').isActive).toBe(true);
    expect(answers[1].json().slots.find((s: { code: string }) => s.code === 'pg').isActive).toBe(false);
    expect(sent.length).toBe(1);
  });

  it('refuses a revoked session on the very next request', async () => {
    const p = await t.player();
    expect((await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers })).statusCode).toBe(200);
    await t.app.tokens.revokeAll(p.id);
    expect((await t.app.inject({ method: 'GET', url: '/api/wallet', headers: p.headers })).statusCode).toBe(401);
  });
});
