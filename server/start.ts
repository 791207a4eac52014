/**
 * `npm start`: build the SPA when missing or stale, migrate, seed, serve (docs/server.md "Starting").
 * DEMO defaults to on here: simulators for every outside service and a demo player.
 * SKIP_SPA_BUILD=1 skips the build step (npm run dev serves the SPA from webpack-dev-server).
 * `npm run start:prod` runs this file compiled (scripts/start-prod.cjs): no SPA build, DEMO off unless asked for.
 */
import cluster from 'node:cluster';
import path from 'node:path';
import { ConfigError, DEMO_WEBHOOK_SECRET, loadConfig, type Config } from './config';
import { createDb } from './db';
import { migrateToLatest } from './db/migrate';
import { seedBase } from './db/seed';
import { DEMO_PLAYER, disableDemoAccounts, seedDemo, type DisabledDemoAccounts } from './demo/index';
import { DEMO_PAYMENTS_STAFF, DEMO_STAFF, seedDemoStaff } from './demo/staff';
import { sealPlaintextGameSecrets } from './plugins/wallet/game-secrets';
import { ROOT, ensureSpaBuilt } from './spa-build';
import { COMPILED } from './lib/paths';
import { startServer } from './server';
import { reportReady, runPrimary, workersRefusal } from './cluster';

/** The exit code of a single process's graceful close on SIGHUP: 128 + 1, as a death by SIGHUP reads in a shell. */
const HANGUP_EXIT_CODE = 129;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/**
 * Migrates, seals game account passwords stored before encryption (with the key that will read them), and
 * seeds; the demo player only on an empty players table and the demo staff accounts only on an empty staff table,
 * so a real install never gets them. With DEMO off, the demo accounts a demo start once made are disabled (their
 * logins are public).
 */
async function prepareDatabase(config: Config): Promise<{ demoCreated: boolean; demoDisabled?: DisabledDemoAccounts; noAdmin?: boolean }> {
  const database = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.dbPoolMax });
  try {
    await migrateToLatest(database.db);
    await sealPlaintextGameSecrets(database.db, config.gameSecretKey);
    await seedBase(database.db);
    if (!config.demo) {
      const demoDisabled = await disableDemoAccounts(database.db);
      const admin = await database.db.selectFrom('staff_users').select('id').where('role', '=', 'admin').where('status', '=', 'active').executeTakeFirst();
      return { demoCreated: false, demoDisabled, noAdmin: !admin };
    }
    await seedDemoStaff(database.db, new Date(), config.gameSecretKey);
    const { n } = await database.db.selectFrom('players').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(n) > 0) return { demoCreated: false };
    await seedDemo(database.db);
    return { demoCreated: true };
  } finally {
    await database.destroy();
  }
}

function configOrFail(): Config {
  try {
    // Compiled (npm run start:prod, docs/server.md "Production build"): DEMO is off unless asked for.
    return loadConfig(process.env, { demoDefault: !COMPILED });
  } catch (e) {
    if (e instanceof ConfigError) fail(`Configuration error: ${e.message}`);
    throw e;
  }
}

/** A cluster worker (WORKERS > 1): the primary built the SPA and prepared the database; this one only serves. */
async function worker(): Promise<void> {
  const config = configOrFail();
  const { url } = await startServer(config);
  // The primary's graceful close (server/server.ts); a hangup of the terminal is the primary's to handle.
  process.on('SIGHUP', () => undefined);
  reportReady(url);
}

async function main(): Promise<void> {
  const config = configOrFail();
  const refusal = workersRefusal(config);
  if (refusal) fail(refusal);

  const defaultDist = path.join(ROOT, 'dist');
  // The compiled server never builds: scripts/start-prod.cjs refused a missing or stale build before this ran.
  if (!COMPILED && !process.env.SKIP_SPA_BUILD && path.resolve(config.distDir) === defaultDist) {
    try {
      await ensureSpaBuilt(ROOT, defaultDist);
    } catch (e) {
      fail(`Cannot start: ${(e as Error).message}`);
    }
  }

  const { demoDisabled, noAdmin } = await prepareDatabase(config);
  if (demoDisabled?.staff.length) console.log(`DEMO is off: disabled the demo staff accounts ${demoDisabled.staff.join(', ')} (audited; staff enable <username> to undo)`);
  // WORKERS unset or 1: this process serves, as always. More: a primary and that many workers on the same port.
  // A single process reloads (SIGHUP: systemctl reload) as a graceful close and exit HANGUP_EXIT_CODE, which
  // deploy/wallet.service restarts on; a cluster's primary restarts its workers one at a time instead.
  const { url } = config.workers > 1 ? await runPrimary(config.workers) : await startServer(config, { hangupExitCode: HANGUP_EXIT_CODE });

  const engine = config.databaseUrl ? 'PostgreSQL' : `SQLite in ${config.dataDir}`;
  const processes = config.workers > 1 ? `, ${config.workers} processes, primary pid ${process.pid}` : '';
  const lines = [`Player wallet listening on ${url} (${engine}${processes})`];
  if (config.demo) {
    lines.push(`Demo mode: simulated games, payments, slips and SMS.`);
    lines.push(`Demo player: phone ${DEMO_PLAYER.phone}, password ${DEMO_PLAYER.password}`);
    lines.push(`Demo staff console: ${url}/staff, username ${DEMO_STAFF.username}, password ${DEMO_STAFF.password}`);
    lines.push(`Demo payments staff: username ${DEMO_PAYMENTS_STAFF.username}, password ${DEMO_PAYMENTS_STAFF.password}, TOTP secret ${DEMO_PAYMENTS_STAFF.totpSecret} (add it to an authenticator app)`);
    if (!process.env.PAYMENT_WEBHOOK_SECRET) lines.push(`Demo payment webhook secret: ${DEMO_WEBHOOK_SECRET} (set PAYMENT_WEBHOOK_SECRET for real use)`);
  }
  if (noAdmin) lines.push('No administrator yet: run npm run operator -- setup to create the first one (then npm run operator -- check)');
  console.log(lines.join('\n'));
}

(cluster.isWorker ? worker() : main()).catch((e: unknown) => fail(`Cannot start: ${e instanceof Error ? e.message : String(e)}`));
