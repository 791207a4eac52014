import { steppedDuring } from '../../test/support/sqlite-statements';
import { SIM_SQLITE_FILE } from '../../adapters/games/sim-store';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';

/**
 * Issue 13: a wallet -> game transfer reads what it checks (restrictions, the session limit, the game account, the
 * loss limit) in its opening transaction on the connection that writes. On SQLite each statement outside a
 * transaction is a read transaction of its own on the read-only connection: lock calls, and pages read again after
 * every commit. Only the session check (every authenticated request) stays there.
 */
const onSqlite = !process.env.DATABASE_URL;
(onSqlite ? describe : describe.skip)('POST /api/wallet/transfer wallet -> game: its reads', () => {
  let t: WalletTestApp;
  beforeAll(async () => {
    t = await buildWalletTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  /** The SQL each better-sqlite3 statement ran for a request during `fn`, with whether its connection was the read-only one. */
  async function statementsOf(fn: () => Promise<void>): Promise<{ sql: string; readonly: boolean }[]> {
    const { stepped } = await steppedDuring(fn);
    // The request's own statements on our database: not the game simulator's (a database of its own), nor a
    // background job's (the journal feed, the pollers), which run outside any request.
    return stepped.filter((x) => x.fromCall && !x.database.name.endsWith(SIM_SQLITE_FILE)).map((x) => ({ sql: x.source, readonly: x.database.readonly }));
  }

  it('reads nothing on the read-only connection but the session; the checks still refuse', async () => {
    const p = await t.player({ balance: 10_000, games: ['pg'] });
    const transfer = (to: string, amount: number) => t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: p.headers, payload: { from: 'WALLET', to, amount } });
    const seen = await statementsOf(async () => {
      const res = await transfer('pg', 10);
      expect([res.statusCode, res.json().status]).toEqual([200, 'SUCCESS']);
    });
    const onReader = seen.filter((s) => s.readonly).map((s) => s.sql);
    expect(onReader).toHaveLength(1);
    expect(onReader[0]).toMatch(/"sessions"/);
    // The writer read the checks: restrictions, limits and the game account.
    const onWriter = seen.filter((s) => !s.readonly).map((s) => s.sql).join('\n');
    for (const table of ['play_restrictions', 'play_limits', 'game_accounts']) expect(onWriter).toContain(`"${table}"`);
    // The limits once: the session limit and the loss limit are checked from one read of them.
    expect(onWriter.match(/from "play_limits"/g)).toHaveLength(1);
    // Two journal entries (wallet -> in transit, in transit -> game), each writing its two balances in one statement.
    expect(onWriter.match(/update "ledger_accounts"/g)).toHaveLength(2);

    // Refusals from inside that transaction leave nothing behind.
    const before = await t.app.db.selectFrom('game_transfers').select((eb) => eb.fn.countAll<number>().as('n')).where('player_id', '=', p.id).executeTakeFirstOrThrow();
    expect((await transfer('nosuchgame', 10)).json().message).toBe('NO_GAME');
    await t.app.db.insertInto('play_restrictions').values({ player_id: p.id, kind: 'TIMEOUT', period: '24h', starts_at: new Date(Date.now() - 1000).toISOString(), ends_at: new Date(Date.now() + 3_600_000).toISOString(), created_at: new Date().toISOString() }).execute();
    const refused = await transfer('pg', 10);
    expect([refused.statusCode, refused.json().message]).toEqual([403, 'PLAY_TIMEOUT']);
    const after = await t.app.db.selectFrom('game_transfers').select((eb) => eb.fn.countAll<number>().as('n')).where('player_id', '=', p.id).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});
