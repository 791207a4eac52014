import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { buildApp } from '../../app';
import { createDb, nowIso } from '../../db';
import { backupSqlite, restoreSqlite } from '../../cli/backup-cli';
import { runAudit, walletBalance } from '../../ledger';
import { depositTo, insertPlayer } from '../../test/support/ledger';
import { PayoutSimulator } from '../../adapters/payouts';
import { seedBase } from '../../db/seed';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { freshDb, openSlipsAllDay, testConfig, testEngine } from '../../test/support/helper';
import { openSimStore, SIM_SQLITE_FILE } from './sim-store';

/**
 * Issue 13: the simulator stands in for a remote provider, so on SQLite its state and its commits live in its own
 * file on its own connection, never in (or through) the wallet's (docs/game-provider.md "Where its state lives").
 */
const sqliteOnly = testEngine() === 'sqlite' ? test : test.skip;
const postgresOnly = testEngine() === 'postgres' ? test : test.skip;

describe('a wallet -> game transfer', () => {
  let t: WalletTestApp;
  beforeAll(async () => {
    t = await buildWalletTestApp();
  });
  afterAll(() => t.close());

  const transfer = async () => {
    const p = await t.player({ balance: 500_00, games: ['pg'] });
    const res = await t.app.inject({ method: 'POST', url: '/api/wallet/transfer', payload: { from: 'WALLET', to: 'pg', amount: 120 }, headers: p.headers });
    expect(res.statusCode).toBe(200);
    return p;
  };

  sqliteOnly('writes the provider side to game-sim.sqlite only: the wallet file gets no sim rows', async () => {
    const p = await transfer();
    const simFile = new SQLite(path.join(t.db.dataDir, SIM_SQLITE_FILE), { readonly: true });
    try {
      expect(simFile.prepare('select balance from sim_players where player_id = ?').get(p.id)).toEqual({ balance: 120_00 });
      expect(simFile.prepare("select count(*) as n from sim_transfers where kind = 'deposit' and status = 'settled'").get()).toEqual({ n: 1 });
    } finally {
      simFile.close();
    }
    for (const table of ['sim_players', 'sim_transfers'] as const) {
      const { n } = await t.db.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      expect({ table, n: Number(n) }).toEqual({ table, n: 0 });
    }
    expect(await t.sim.balance('pg', `pw${p.id}`)).toBe(120_00);
  });

  sqliteOnly('the sim file is synchronous=NORMAL: a stand-in for a remote system (wallet.sqlite keeps FULL)', async () => {
    expect((await sql<{ synchronous: number }>`pragma synchronous`.execute(t.sim.store)).rows[0].synchronous).toBe(1);
  });

  sqliteOnly("the sim file's transactions share commits (group commit), each answered once its commit is done", async () => {
    const wallet = await freshDb();
    const store = await openSimStore({ dialect: 'sqlite', dataDir: wallet.dataDir, walletDb: wallet.db });
    try {
      const stats = store.groupCommit!;
      const before = { ...stats };
      const at = nowIso();
      // Twenty providers' accounts opened at once, as concurrent transfers would.
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.db.transaction().execute((trx) =>
            trx.insertInto('sim_players').values({ game_code: 'pg', player_id: 9000 + i, username: `u${i}`, password: 'x', created_at: at, updated_at: at }).execute(),
          ),
        ),
      );
      expect(stats.transactions - before.transactions).toBe(20);
      expect(stats.commits - before.commits).toBeLessThan(20);
      // Answered only once committed: another connection to the file sees every row.
      const file = new SQLite(path.join(wallet.dataDir, SIM_SQLITE_FILE), { readonly: true });
      try {
        expect(file.prepare('select count(*) as n from sim_players where player_id >= 9000').get()).toEqual({ n: 20 });
      } finally {
        file.close();
      }
    } finally {
      await store.destroy();
      await wallet.dispose();
    }
  });

  postgresOnly('on PostgreSQL the provider side shares the wallet database (its own transactions, no writer lock)', async () => {
    const p = await transfer();
    const row = await t.db.db.selectFrom('sim_players').select('balance').where('player_id', '=', p.id).executeTakeFirstOrThrow();
    expect(Number(row.balance)).toBe(120_00);
  });
});

sqliteOnly('a new sim file takes over the sim rows an older version left in wallet.sqlite, once', async () => {
  const db = await freshDb();
  try {
    await seedBase(db.db);
    const now = nowIso();
    await db.db.insertInto('sim_players').values({ game_code: 'pg', player_id: 77, username: 'pw77', password: 'old-pass-1', balance: 300_00, created_at: now, updated_at: now }).execute();
    await db.db
      .insertInto('sim_transfers')
      .values({ game_code: 'pg', transfer_id: 'before-the-split', kind: 'deposit', username: 'pw77', amount: 300_00, status: 'settled', reason: null, balance_after: 300_00, created_at: now })
      .execute();
    for (let round = 0; round < 2; round++) {
      const app = await buildApp(testConfig(db.dataDir), { database: db, logger: false });
      await app.ready();
      try {
        const sim = app.gameSim!;
        expect(await sim.balance('pg', 'pw77')).toBe(300_00);
        // The same transferId is still a replay, not a second deposit.
        expect(await sim.deposit('pg', 'pw77', 'before-the-split', 300_00)).toEqual({ status: 'settled' });
        expect(await sim.transferStatus('pg', 'before-the-split')).toBe('settled');
        const { n } = await sim.store.selectFrom('sim_players').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
        expect(Number(n)).toBe(1);
      } finally {
        await app.close();
      }
    }
  } finally {
    await db.dispose();
  }
});

sqliteOnly('a restored wallet backup meets a provider that kept going (backups hold wallet.sqlite only): the reconciler and the game balance still behave', async () => {
  const first = await freshDb();
  const { dataDir } = first;
  const wallet = { payoutAdapter: new PayoutSimulator({ delayMs: null }), wallet: { reconcileIntervalMs: 0, reconcileAtStart: false, reconcileAfterMs: 0, claimMs: 0 } };
  try {
    await seedBase(first.db);
    await openSlipsAllDay(first.db);
    let app = await buildApp(testConfig(dataDir), { database: first, logger: false, wallet });
    await app.ready();
    const id = await insertPlayer(first.db);
    await depositTo(first.db, id, 500_00);
    const headers = { authorization: `Bearer ${await app.tokens.issue(id)}` };
    expect((await app.inject({ method: 'GET', url: '/api/wallet/activate/pg', headers })).statusCode).toBe(200);
    const move = (amount: number) => app.inject({ method: 'POST', url: '/api/wallet/transfer', payload: { from: 'WALLET', to: 'pg', amount }, headers });
    // In the copy: 100 baht pending (the provider applied it, its answer was lost).
    app.gameSim!.failNext('deposit', 'timeout-after-apply');
    expect((await move(100)).statusCode).toBe(202);
    const copy = path.join(dataDir, 'copy.sqlite');
    await backupSqlite(dataDir, copy);
    // After the copy: 50 baht more, which the restored ledger will not know.
    expect((await move(50)).statusCode).toBe(200);
    await app.close();
    await first.destroy();

    await restoreSqlite(copy, dataDir, { replace: true });
    const restored = createDb({ databaseUrl: null, dataDir });
    try {
      app = await buildApp(testConfig(dataDir), { database: restored, logger: false, wallet });
      await app.ready();
      expect(await app.wallet.reconcileNow()).toMatchObject({ settled: 1, reversed: 0, stillPending: 0 });
      expect(await walletBalance(restored.db, id)).toBe(400_00);
      const res = await app.inject({ method: 'GET', url: '/api/wallet/refresh/slot', headers: { authorization: `Bearer ${await app.tokens.issue(id)}` } });
      expect(res.statusCode).toBe(200);
      // The provider's balance, transfers after the copy included: for the operator to settle from its report.
      expect(res.json().slots.find((s: { code: string }) => s.code === 'pg')).toMatchObject({ amount: 150 });
      expect((await runAudit(restored.db)).ok).toBe(true);
      await app.close();
    } finally {
      await restored.destroy();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
