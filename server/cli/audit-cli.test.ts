import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { freshDb, testEngine, type TestDb } from '../test/support/helper';
import { seedBase } from '../db/seed';
import { creditWallet } from '../ledger/journal';
import { insertPlayer } from '../test/support/ledger';

const ROOT = path.resolve(__dirname, '..', '..');
let t: TestDb;
let env: Record<string, string>;

beforeAll(async () => {
  t = await freshDb();
  await seedBase(t.db);
  env = { ...(process.env as Record<string, string>), DATA_DIR: t.dataDir };
  delete env.DATABASE_URL;
  if (testEngine() === 'postgres') {
    const { rows } = await sql<{ s: string }>`select current_schema() as s`.execute(t.db);
    const url = process.env.DATABASE_URL!;
    env.DATABASE_URL = `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${rows[0].s}`)}`;
  }
});
afterAll(() => t.dispose());

const runCli = (e = env) => spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/audit-cli.ts'], { cwd: ROOT, env: e, encoding: 'utf8' });

test('npm run audit:ledger exits 0 on a sound ledger and 1 with a readable report on a violation', async () => {
  const p = await insertPlayer(t.db);
  await t.db.transaction().execute((trx) => creditWallet(trx, { playerId: p, amount: 2_500, from: 'deposits_in_transit', kind: 'deposit', reference: 'cli-1' }));
  const ok = runCli();
  expect(ok.stdout).toMatch(/OK: every invariant holds/);
  expect(ok.status).toBe(0);

  await sql`update ledger_accounts set balance = balance - 100 where code = ${`wallet:${p}`}`.execute(t.db);
  const bad = runCli();
  expect(bad.status).toBe(1);
  expect(bad.stderr).toMatch(/FAILED/);
  expect(bad.stderr).toContain(`wallet:${p}: balance 24.00, postings 25.00`);
}, 60_000);

test('exits 2 when there is no database to audit', () => {
  const e: Record<string, string> = { ...env, DATA_DIR: path.join(t.dataDir, 'nowhere') };
  delete e.DATABASE_URL;
  const r = runCli(e);
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/no database/);
}, 60_000);
