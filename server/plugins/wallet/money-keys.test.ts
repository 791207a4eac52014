import { steppedDuring } from '../../test/support/sqlite-statements';
import { SIM_SQLITE_FILE } from '../../adapters/games/sim-store';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';

/**
 * Issue 13: the Idempotency-Key of a transfer or a withdrawal is written in the route's own transactions
 * (ledger/idempotency.ts, idempotentIn): claimed in the one that moves the money, a transfer's answer stored in the
 * one that closes it.
 */
let t: WalletTestApp;
beforeAll(async () => {
  t = await buildWalletTestApp();
});
afterAll(async () => {
  await t.close();
});

type Player = Awaited<ReturnType<WalletTestApp['player']>>;
const transfer = (p: Player, key: string, body: object) =>
  t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: { ...p.headers, 'idempotency-key': key }, payload: body });
const transfersOf = async (playerId: number) =>
  Number((await t.app.db.selectFrom('game_transfers').select((eb) => eb.fn.countAll<number>().as('n')).where('player_id', '=', playerId).executeTakeFirstOrThrow()).n);
const keyRow = (playerId: number, key: string) =>
  t.app.db.selectFrom('idempotency_keys').select(['state', 'status_code', 'response_body']).where('player_id', '=', playerId).where('idem_key', '=', key).executeTakeFirst();

it('a transfer with a key runs once; the same request again replays its answer', async () => {
  const p = await t.player({ balance: 10_000, games: ['pg'] });
  const first = await transfer(p, 'k-once', { from: 'WALLET', to: 'pg', amount: 10 });
  expect([first.statusCode, first.json().status]).toEqual([200, 'SUCCESS']);
  const again = await transfer(p, 'k-once', { from: 'WALLET', to: 'pg', amount: 10 });
  expect([again.statusCode, again.headers['idempotent-replayed'], again.json()]).toEqual([200, 'true', first.json()]);
  expect(await transfersOf(p.id)).toBe(1);
  expect(await keyRow(p.id, 'k-once')).toMatchObject({ state: 'done', status_code: 200 });
  // Another request under the same key is refused.
  expect((await transfer(p, 'k-once', { from: 'WALLET', to: 'pg', amount: 11 })).json().message).toBe('KEY_INVALID');
});

it('a refusal inside the transfer is the key answer for good: the key and the money rolled back together, the refusal kept', async () => {
  const p = await t.player({ balance: 500, games: ['pg'] });
  const refused = await transfer(p, 'k-poor', { from: 'WALLET', to: 'pg', amount: 10 });
  expect([refused.statusCode, refused.json().message]).toEqual([422, 'MONEY_NOT_ENOUGH']);
  expect(await transfersOf(p.id)).toBe(0);
  expect(await keyRow(p.id, 'k-poor')).toMatchObject({ state: 'done', status_code: 422 });
  const replayed = await transfer(p, 'k-poor', { from: 'WALLET', to: 'pg', amount: 10 });
  expect([replayed.statusCode, replayed.headers['idempotent-replayed'], replayed.json().message]).toEqual([422, 'true', 'MONEY_NOT_ENOUGH']);
});

it('a definite failure is stored with the transfer that reversed it, and replayed', async () => {
  const p = await t.player({ balance: 10_000, games: ['pg'] });
  t.sim.failNext('deposit', 'reject');
  const failed = await transfer(p, 'k-fail', { from: 'WALLET', to: 'pg', amount: 10 });
  expect([failed.statusCode, failed.json().message]).toEqual([422, 'TRANSFER_FAIL']);
  expect(await keyRow(p.id, 'k-fail')).toMatchObject({ state: 'done', status_code: 422 });
  expect((await transfer(p, 'k-fail', { from: 'WALLET', to: 'pg', amount: 10 })).headers['idempotent-replayed']).toBe('true');
  expect(await transfersOf(p.id)).toBe(1);
});

it('the same key sent twice at once moves the money once', async () => {
  const p = await t.player({ balance: 10_000, games: ['pg'] });
  const [a, b] = await Promise.all([0, 1].map(() => transfer(p, 'k-twice', { from: 'WALLET', to: 'pg', amount: 10 })));
  expect(await transfersOf(p.id)).toBe(1);
  const ran = [a, b].filter((r) => r.statusCode === 200 && r.headers['idempotent-replayed'] === undefined);
  expect(ran).toHaveLength(1);
  // The other was refused while the first ran, or replayed its answer once stored.
  const other = a === ran[0] ? b : a;
  if (other.statusCode === 200) expect([other.headers['idempotent-replayed'], other.json().transferId]).toEqual(['true', ran[0].json().transferId]);
  else expect([other.statusCode, other.json().message]).toEqual([409, 'KEY_INVALID']);
});

it('game -> game: the key claimed in the first leg, answered in the second', async () => {
  const p = await t.player({ balance: 10_000, games: ['pg', 'pgslot'] });
  expect((await transfer(p, 'k-in', { from: 'WALLET', to: 'pg', amount: 20 })).statusCode).toBe(200);
  const moved = await transfer(p, 'k-across', { from: 'pg', to: 'pgslot', amount: 5 });
  expect([moved.statusCode, moved.json().status]).toEqual([200, 'SUCCESS']);
  expect(await transfersOf(p.id)).toBe(3);
  const again = await transfer(p, 'k-across', { from: 'pg', to: 'pgslot', amount: 5 });
  expect([again.headers['idempotent-replayed'], again.json()]).toEqual(['true', moved.json()]);
  expect(await transfersOf(p.id)).toBe(3);
});

it('withdrawAll: the key is claimed in the movement that takes the money, and replays', async () => {
  const p = await t.player({ balance: 500_00 });
  const withdraw = () => t.app.inject({ method: 'POST', url: '/api/wallet/withdrawAll', headers: { ...p.headers, 'idempotency-key': 'k-w' }, payload: { amount: 200 } });
  const seen: boolean[] = [];
  // The bonus gate runs with the withdrawal's reads, before its movement: the key is claimed in that movement (issue 43:
  // one statement with the money on PostgreSQL, its transaction on SQLite), so the gate sees it nowhere yet.
  t.app.wallet.setBonusGate(async (trx, id) => {
    if (id === p.id) {
      const inside = await trx.selectFrom('idempotency_keys').select('state').where('player_id', '=', p.id).where('idem_key', '=', 'k-w').executeTakeFirst();
      seen.push(inside?.state === 'processing', (await keyRow(p.id, 'k-w')) !== undefined);
    }
    return false;
  });
  try {
    const first = await withdraw();
    expect([first.statusCode, first.json().status]).toEqual([200, 'IN_PROGRESS']);
    expect(seen).toEqual([false, false]);
    expect((await keyRow(p.id, 'k-w'))?.state).toBe('done');
    const again = await withdraw();
    expect([again.headers['idempotent-replayed'], again.json()]).toEqual(['true', first.json()]);
    // The replay's movement found the key taken (its claim is the movement's condition): nothing of it was written.
    expect(seen.slice(2)).toEqual([false, true]);
    const rows = await t.app.db.selectFrom('withdrawals').select('id').where('player_id', '=', p.id).execute();
    expect(rows).toHaveLength(1);
  } finally {
    t.app.wallet.setBonusGate(async () => false);
  }
});

const onSqlite = !process.env.DATABASE_URL;
(onSqlite ? it : it.skip)('on SQLite a keyed wallet -> game transfer is two transactions: the key in the first, its answer in the second', async () => {
  const p = await t.player({ balance: 10_000, games: ['pg'] });
  const { stepped } = await steppedDuring(async () => {
    expect((await transfer(p, 'k-two', { from: 'WALLET', to: 'pg', amount: 10 })).statusCode).toBe(200);
  });
  const writes = stepped.filter((x) => x.fromCall && !x.database.readonly && !x.database.name.endsWith(SIM_SQLITE_FILE)).map((x) => x.source);
  // The writer's statements of the request, cut into its transactions (group-commit.ts: one SAVEPOINT ... RELEASE each).
  const transactions: string[][] = [];
  let open: string[] | null = null;
  for (const sql of writes) {
    if (/^savepoint /i.test(sql)) transactions.push((open = []));
    else if (/^release /i.test(sql)) open = null;
    else if (!/^(begin|commit)/i.test(sql)) {
      expect(open).not.toBeNull(); // no write of the request outside its transactions (a commit to wait for each)
      open!.push(sql);
    }
  }
  expect(transactions).toHaveLength(2);
  const [opening, closing] = transactions.map((x) => x.join('\n'));
  expect(opening).toMatch(/insert into "idempotency_keys"/);
  expect(opening).toMatch(/insert into "game_transfers"/);
  expect(closing).toMatch(/update "game_transfers"/);
  expect(closing).toMatch(/update "idempotency_keys"/);
});
