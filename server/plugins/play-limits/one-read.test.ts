import { isPostgres } from '../../db/portable';
import { roundTripsDuring } from '../../test/support/pg-round-trips';
import { steppedDuring } from '../../test/support/sqlite-statements';
import { SIM_SQLITE_FILE } from '../../adapters/games/sim-store';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';

/**
 * Issue 43: the player's limits and the restriction running now are read in ONE statement (windows.ts
 * loadPlayState), on both engines: by the guard of every play route, and by a wallet -> game transfer, whose
 * session-limit check (assertMayPlay) takes the restriction read with the limits it was handed (loadLimits). They
 * were two statements, play_limits then play_restrictions (a round trip each on PostgreSQL). The refusals they give
 * are the enforcement suites' (enforce.test.ts, enforcement.test.ts); here: how many statements, and that a
 * restriction read that way still refuses.
 */
let t: WalletTestApp;
beforeAll(async () => {
  t = await buildWalletTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The SQL of the statements a request ran during `fn` on our database, on either engine. */
async function statementsOf(fn: () => Promise<void>): Promise<string[]> {
  if (isPostgres(t.db.db)) return (await roundTripsDuring(fn)).trips.map((q) => q.text);
  const { stepped } = await steppedDuring(fn);
  return stepped.filter((x) => x.fromCall && !x.database.name.endsWith(SIM_SQLITE_FILE)).map((x) => x.source);
}

const readsPlayTables = (sql: string) => /"play_limits"|"play_restrictions"/.test(sql);
const restrict = (playerId: number, kind: 'TIMEOUT' | 'EXCLUSION', endsInMs: number) =>
  t.db.db
    .insertInto('play_restrictions')
    .values({ player_id: playerId, kind, period: kind === 'TIMEOUT' ? '24h' : '6m', starts_at: new Date(Date.now() - 1000).toISOString(), ends_at: new Date(Date.now() + endsInMs).toISOString(), created_at: new Date().toISOString() })
    .execute();
const sessionLimit = (playerId: number, minutes: number) =>
  t.db.db.insertInto('play_limits').values({ player_id: playerId, kind: 'session', value: minutes, pending_set: 0, pending_value: null, pending_at: null, updated_at: new Date().toISOString() }).execute();

test('a wallet -> game transfer reads the limits and the restriction in one statement, and a restriction read so refuses it', async () => {
  const p = await t.player({ balance: 10_000, games: ['pg'] });
  await sessionLimit(p.id, 600);
  const transfer = () => t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: p.headers, payload: { from: 'WALLET', to: 'pg', amount: 10 } });
  const seen = await statementsOf(async () => {
    const res = await transfer();
    expect([res.statusCode, res.json().status]).toEqual([200, 'SUCCESS']);
  });
  const reads = seen.filter(readsPlayTables);
  expect(reads).toHaveLength(1);
  expect(reads[0]).toMatch(/"play_limits"[\s\S]*union all[\s\S]*"play_restrictions"/);

  await restrict(p.id, 'TIMEOUT', 3_600_000);
  const refused = await statementsOf(async () => {
    const res = await transfer();
    expect([res.statusCode, res.json().message]).toEqual([403, 'PLAY_TIMEOUT']);
  });
  expect(refused.filter(readsPlayTables)).toHaveLength(1);
  // Both running: the exclusion counts (activeRestriction's rule), the one that ends last or not.
  await restrict(p.id, 'EXCLUSION', 60_000);
  expect((await transfer()).json().message).toBe('SELF_EXCLUDED');
});

test('the guard of a play route reads the session limit and the restriction in one statement', async () => {
  const p = await t.player({ balance: 0 });
  await sessionLimit(p.id, 600);
  const activate = () => t.app.inject({ method: 'GET', url: '/api/wallet/activate/pg', headers: p.headers });
  const seen = await statementsOf(async () => {
    expect((await activate()).statusCode).toBe(200);
  });
  expect(seen.filter(readsPlayTables)).toHaveLength(1);
  await restrict(p.id, 'TIMEOUT', 3_600_000);
  const res = await activate();
  expect([res.statusCode, res.json().message]).toEqual([403, 'PLAY_TIMEOUT']);
});
