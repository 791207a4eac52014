/**
 * `npm run operator -- <command>`: the operator's switches, on the configured database (DATABASE_URL, or
 * SQLite in DATA_DIR). See USAGE below and docs/server.md "Operator CLI".
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { ConfigError, loadConfig, type Config } from '../config';
import { createDb, nowIso } from '../db';
import { readSetting, writeSetting } from '../settings';
import { loadAccountRules } from '../plugins/accounts/rules';
import { LOOKUP_NAMES, isLookupName, lookups } from '../plugins/lookups/lookups-service';
import { BONUS_USAGE, runBonusCommand } from '../plugins/bonus/operator';
import { INVITE_USAGE, runInviteCommand } from '../plugins/invite/operator';
import { WHEEL_USAGE, runWheelCommand } from '../plugins/wheel/operator';
import { STAFF_USAGE, runStaffCommand } from '../plugins/staff/operator';
import { terminalPrompt, terminalQuestion } from '../lib/terminal';
import { SETUP_USAGE, runSetup, type SetupContext } from './operator-setup';
import { runCheck, runCheckFromEnv } from './operator-check';

export const USAGE = `Usage: npm run operator -- <command>

  site                         show whether the site is active or gone
  site gone|active             terminate the whole site (every player lands on /terminated) or bring it back
  player <phone>               show a player's status
  player <phone> gone|active|inactive
                               set a player's status: gone shows the player /terminated, inactive ends their
                               sessions and refuses logins, active lets them log in again
  lookups [name]               print what GET /api/lookup/{name} answers (all of them without a name)
${BONUS_USAGE}${INVITE_USAGE}${WHEEL_USAGE}${STAFF_USAGE}${SETUP_USAGE}  check                        every setting a live start needs, what it is now and whether it is safe with
                               real money; exit 1 when anything is unsafe, missing or weak
  help                         this text
`;

export const PLAYER_STATUSES = ['active', 'inactive', 'gone'] as const;
export type PlayerStatus = (typeof PLAYER_STATUSES)[number];

/** The setup's context (the database, output, prompts, the environment, the key) and the config the lookups reflect. */
export interface OperatorContext extends SetupContext {
  /** What the lookups reflect from the config (`lookups` prints their answers). */
  config: Pick<Config, 'registerOtp' | 'minPlayerAge' | 'demo'>;
}

/**
 * Sets a player's status. The auth check reads the status on every call, so it takes effect at once:
 * `gone` answers 410 gone (the SPA shows /terminated, so sessions are kept for that answer to reach it);
 * `inactive` also ends every session, so coming back to `active` needs a fresh login.
 */
export async function setPlayerStatus(db: Kysely<DB>, phone: string, status: PlayerStatus, now = new Date()): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const player = await trx.selectFrom('players').select('id').where('phone', '=', phone).executeTakeFirst();
    if (!player) return false;
    await trx.updateTable('players').set({ status, updated_at: nowIso(now) }).where('id', '=', player.id).execute();
    if (status === 'inactive') {
      await trx.updateTable('sessions').set({ revoked_at: nowIso(now) }).where('player_id', '=', player.id).where('revoked_at', 'is', null).execute();
    }
    return true;
  });
}

/** Runs one command; returns the process exit code (0 done, 1 not found, 2 bad usage). */
export async function runOperator(args: string[], ctx: OperatorContext): Promise<number> {
  const [command, ...rest] = args;
  const now = ctx.now ?? (() => new Date());
  switch (command) {
    case 'site': {
      const [state] = rest;
      if (state === undefined) {
        const s = await readSetting(ctx.db, 'site');
        ctx.out(`site: ${s?.terminated === 'gone' ? 'gone' : 'active'}`);
        return 0;
      }
      if (state !== 'gone' && state !== 'active') break;
      await writeSetting(ctx.db, 'site', { terminated: state === 'gone' ? 'gone' : null }, now());
      ctx.out(`site: ${state}`);
      return 0;
    }
    case 'player': {
      const [phone, status] = rest;
      if (!phone) break;
      if (status === undefined) {
        const p = await ctx.db.selectFrom('players').select(['id', 'name', 'status']).where('phone', '=', phone).executeTakeFirst();
        if (!p) {
          ctx.err(`no player with phone ${phone}`);
          return 1;
        }
        ctx.out(`player ${phone} (id ${p.id}, ${p.name}): ${p.status}`);
        return 0;
      }
      if (!(PLAYER_STATUSES as readonly string[]).includes(status)) break;
      if (!(await setPlayerStatus(ctx.db, phone, status as PlayerStatus, now()))) {
        ctx.err(`no player with phone ${phone}`);
        return 1;
      }
      ctx.out(`player ${phone}: ${status}`);
      return 0;
    }
    case 'lookups': {
      const [name] = rest;
      const names = name === undefined ? LOOKUP_NAMES : isLookupName(name) ? [name] : null;
      if (!names) {
        ctx.err(`unknown lookup "${name}"; one of: ${LOOKUP_NAMES.join(', ')}`);
        return 2;
      }
      const context = { db: ctx.db, config: ctx.config, now: now(), passwordMinLength: loadAccountRules().passwordMinLength };
      const result: Record<string, unknown> = {};
      for (const n of names) result[n] = await lookups[n](context).catch((e: Error) => ({ error: e.message }));
      ctx.out(JSON.stringify(name === undefined ? result : result[name], null, 2));
      return 0;
    }
    case 'bonus':
    case 'promotion':
    case 'refund': {
      const code = await runBonusCommand(command, rest, { db: ctx.db, out: ctx.out, err: ctx.err, now });
      if (code !== null) return code;
      break;
    }
    case 'invite': {
      const code = await runInviteCommand(rest, { db: ctx.db, out: ctx.out, err: ctx.err, now });
      if (code !== null) return code;
      break;
    }
    case 'wheel': {
      const code = await runWheelCommand(rest, { db: ctx.db, out: ctx.out, err: ctx.err, now });
      if (code !== null) return code;
      break;
    }
    case 'staff': {
      const code = await runStaffCommand(rest, { db: ctx.db, out: ctx.out, err: ctx.err, now, env: ctx.env, prompt: ctx.prompt, secretKey: ctx.secretKey });
      if (code !== null) return code;
      break;
    }
    case 'setup':
      if (rest.length) break;
      return runSetup({ db: ctx.db, out: ctx.out, err: ctx.err, now, env: ctx.env, prompt: ctx.prompt, ask: ctx.ask, secretKey: ctx.secretKey });
    case 'check':
      if (rest.length) break;
      return runCheck({ db: ctx.db, env: ctx.env ?? {}, out: ctx.out, now });
    case undefined:
    case 'help':
    case '--help':
    case '-h':
      ctx.out(USAGE);
      return command === undefined ? 2 : 0;
  }
  ctx.err(USAGE);
  return 2;
}

async function main(): Promise<void> {
  // check judges the configuration itself: one the server would refuse is a finding, not a stop.
  if (process.argv[2] === 'check' && process.argv.length === 3) process.exit(await runCheckFromEnv(process.env, (l) => console.log(l)));
  let config: Config;
  try {
    config = loadConfig(process.env, { demoDefault: process.env.NODE_ENV !== 'production', persistSecrets: false });
  } catch (e) {
    console.error(e instanceof ConfigError ? `Configuration error: ${e.message}` : String(e));
    process.exit(1);
  }
  const database = createDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, poolMax: config.dbPoolMax });
  let code = 1;
  try {
    code = await runOperator(process.argv.slice(2), {
      db: database.db,
      config,
      out: (l) => console.log(l),
      err: (l) => console.error(l),
      env: process.env,
      prompt: process.stdin.isTTY && process.stdout.isTTY ? terminalPrompt : undefined,
      ask: process.stdin.isTTY && process.stdout.isTTY ? terminalQuestion : undefined,
      // Only a key the server also reads: not one made up for this run (no GAME_SECRET_KEY and no key file yet).
      secretKey: process.env.GAME_SECRET_KEY || fs.existsSync(path.join(config.dataDir, 'game-secret-key')) ? config.gameSecretKey : undefined,
    });
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    console.error(/no such table|does not exist/i.test(msg) ? `The database is not set up yet: run npm start or npm run migrate first (${msg})` : msg);
  } finally {
    await database.destroy();
  }
  process.exit(code);
}

if (require.main === module) void main();
