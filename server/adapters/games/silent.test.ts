import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildWalletTestApp, type WalletTestApp } from '../../test/support/ledger';
import { ensureTestGames } from '../../test/support/games-sim';
import { circuitsOf } from '../http';
import { GAME_SIM_BREAKER, GAME_SIM_DEFAULTS } from './simulator';

/**
 * The game provider answering nothing (issue 43's "provider silent" fault, docs/operations.md "Without Redis, and
 * other faults"): while GAME_SIM_SILENT_FILE exists, the simulator answers no call until the caller's timeout, and its
 * breaker then refuses the calls at once. A transfer answers 202 IN_PROGRESS (the money parked, the row pending for the
 * reconciler) and an activation 502 SLOT_ACTIVATE_FAIL, never a hang; once the file is gone the calls answer again
 * within the breaker's cool-down, the reconciler finishes what was left pending, and no money is created or lost.
 */
const CALL_TIMEOUT_MS = 1000;
let t: WalletTestApp;
let dir: string;
let silentFile: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-silent-'));
  silentFile = path.join(dir, 'silent');
  // simulatorOptionsFromEnv reads these when the app is built; put back right after.
  process.env.GAME_SIM_SILENT_FILE = silentFile;
  process.env.GAME_SIM_CALL_TIMEOUT_MS = String(CALL_TIMEOUT_MS);
  try {
    // No claim on a pending transfer: the reconciler may take one up as soon as the test asks.
    t = await buildWalletTestApp({ claimMs: 1 });
  } finally {
    delete process.env.GAME_SIM_SILENT_FILE;
    delete process.env.GAME_SIM_CALL_TIMEOUT_MS;
  }
  await ensureTestGames(t.app.db);
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await fn();
  return { value, ms: Date.now() - started };
}

test('two calls in a row at the default call timeout stay under the 5 s the load phase counts as hung, and the breaker lets a probe through within seconds', () => {
  // A game -> wallet transfer asks the balance, then withdraws: both unanswered is two timeouts.
  expect(2 * GAME_SIM_DEFAULTS.callTimeoutMs).toBeLessThan(5000);
  expect(GAME_SIM_BREAKER.coolDownMs).toBeLessThanOrEqual(5000);
});

test('silent: transfers answer 202 IN_PROGRESS after the call timeout, then at once with the circuit open; back after the file goes; nothing lost', async () => {
  const p = await t.player({ balance: 100_000, games: ['pg'] });
  const transfer = (amount: number) => t.app.inject({ method: 'POST', url: '/api/wallet/transfer', headers: p.headers, payload: { from: 'WALLET', to: 'pg', amount } });
  const settled = await transfer(10);
  expect(settled.statusCode).toBe(200);

  fs.writeFileSync(silentFile, '');
  // The first calls wait for the caller's timeout: 202, the transfer left pending, not a hang.
  const first = await Promise.all(Array.from({ length: GAME_SIM_BREAKER.failureThreshold }, () => timed(() => transfer(10))));
  for (const r of first) {
    expect([r.value.statusCode, r.value.json().status]).toEqual([202, 'IN_PROGRESS']);
    expect(r.ms).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS - 50);
    expect(r.ms).toBeLessThan(CALL_TIMEOUT_MS + 3000);
  }
  // Then the circuit is open: the next ones are refused before any wait.
  expect(circuitsOf(t.app).get('game-simulator')?.state).toBe('open');
  const fast = await timed(() => transfer(10));
  expect([fast.value.statusCode, fast.value.json().status]).toEqual([202, 'IN_PROGRESS']);
  expect(fast.ms).toBeLessThan(1000);
  const activate = await timed(() => t.app.inject({ method: 'GET', url: '/api/wallet/activate/joker2', headers: p.headers }));
  expect([activate.value.statusCode, activate.value.json()]).toEqual([502, { message: 'SLOT_ACTIVATE_FAIL' }]);
  expect(activate.ms).toBeLessThan(1000);
  expect((await t.app.ops.readiness()).degraded).toEqual(['game-simulator']);

  fs.rmSync(silentFile);
  const back = await timed(async () => {
    for (;;) {
      const r = await transfer(10);
      if (r.statusCode === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  expect(back.ms).toBeLessThan(GAME_SIM_BREAKER.coolDownMs + CALL_TIMEOUT_MS + 3000);
  expect(circuitsOf(t.app).get('game-simulator')?.state).toBe('closed');

  // The reconciler sends the pending transfers again (the provider never got them) and settles them.
  const pending = (await t.app.db.selectFrom('game_transfers').select('id').where('player_id', '=', p.id).where('status', '=', 'pending').execute()).length;
  // The five that waited, the one refused at once, and those the loop above sent while the circuit was still open.
  expect(pending).toBeGreaterThanOrEqual(GAME_SIM_BREAKER.failureThreshold + 1);
  expect(await t.app.wallet.reconcileNow()).toMatchObject({ examined: pending, settled: pending, stillPending: 0 });
  // Every transfer is settled once, and the provider holds exactly what they moved: nothing lost, nothing twice.
  const rows = await t.app.db.selectFrom('game_transfers').select(['status', 'amount']).where('player_id', '=', p.id).execute();
  expect(rows.filter((r) => r.status !== 'settled')).toEqual([]);
  const username = (await t.app.db.selectFrom('game_accounts').select('username').where('player_id', '=', p.id).where('game_code', '=', 'pg').executeTakeFirstOrThrow()).username;
  expect(await t.sim.balance('pg', username)).toBe(rows.reduce((sum, r) => sum + Number(r.amount), 0));
  console.log(`provider silent: first answers ${first.map((r) => r.ms).join('/')} ms (call timeout ${CALL_TIMEOUT_MS}), then ${fast.ms} ms with the circuit open; a transfer settled again ${back.ms} ms after the provider answered again`);
});
