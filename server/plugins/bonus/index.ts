import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../../config';
import { startPoller, type Poller } from '../../jobs/poller';
import { runWageringPass, type BonusDeps, type WageringReport } from './engine';
import { unprocessable } from '../../errors';
import routes from './routes';
import { startJobLease, type Lease } from '../../jobs/lease';

/** The bonus code rule the wheel's prizes follow. */
export { normalizeCode } from './definitions';

export interface BonusPluginOptions {
  /** Wagering pass period (ms); 0: only app.bonus.pollNow(). BONUS_POLL_INTERVAL_MS [3000 in demo mode, else 10000] */
  pollIntervalMs?: number;
}

export interface BonusApi {
  deps: BonusDeps;
  /** One wagering pass (bet feeds, then bonus evaluation) covering everything up to this call. */
  pollNow(): Promise<WageringReport>;
}

declare module 'fastify' {
  interface FastifyInstance {
    bonus: BonusApi;
  }
}

/** BONUS_POLL_INTERVAL_MS: a whole number of milliseconds (0 turns the timer off). */
export function pollIntervalFromEnv(env: Record<string, string | undefined>, demo: boolean): number {
  const v = env.BONUS_POLL_INTERVAL_MS;
  if (v === undefined || v === '') return demo ? 3_000 : 10_000;
  if (!/^\d{1,9}$/.test(v)) throw new ConfigError(`BONUS_POLL_INTERVAL_MS must be a whole number of milliseconds, got "${v}"`);
  return Number(v);
}

/**
 * Bonuses, promotion codes and refunds (docs/bonus.md): the routes, the withdrawal gate (BONUS_CONDITION while
 * a bonus is active, BONUS_DEBT while an ended one is still owed) and the wagering poller, started when the app is ready and stopped when it closes; its timer
 * runs a pass only while this process holds the `wagering-poller` lease.
 */
async function bonus(app: FastifyInstance, opts: BonusPluginOptions) {
  const intervalMs = opts.pollIntervalMs ?? pollIntervalFromEnv(process.env, app.config.demo);
  const log = { warn: (obj: object, msg: string) => app.log.warn(obj, msg) };
  const deps: BonusDeps = { db: app.db, now: () => app.clock.now(), transferDeps: app.wallet.transferDeps, log };
  const job = () => runWageringPass({ ...deps, provider: app.wallet.provider });

  let poller: Poller<WageringReport> | null = null;
  app.decorate('bonus', {
    deps,
    pollNow: () => (poller ? poller.runNow() : Promise.reject(new Error('the app is not ready'))),
  } satisfies BonusApi);

  // BONUS_CONDITION while a bonus is active; BONUS_DEBT (thrown: a code of its own) while part of an ended bonus is
  // still to be taken back from the games (takeback.ts). Both read under the withdrawal's player lock.
  // One statement (issue 43: findActiveBonus and bonusDebtOf's reads were two round trips on PostgreSQL).
  app.wallet.setBonusGate(async (db, playerId) => {
    const g = await db
      .selectFrom('user_bonuses')
      .select((eb) => [
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('status', '=', 'ACTIVE').then(1).else(0).end()), eb.val(0)).as('active'),
        eb.fn.coalesce(eb.fn.sum<number>(eb.case().when('debt', '>', 0).then(eb.ref('debt')).else(0).end()), eb.val(0)).as('debt'),
      ])
      .where('player_id', '=', playerId)
      .executeTakeFirstOrThrow();
    if (Number(g.active) > 0) return true;
    if (Number(g.debt) > 0) throw unprocessable('BONUS_DEBT');
    return false;
  });

  // Timed passes only in the process holding the `wagering-poller` lease (docs/operations.md "Background jobs
  // (leases)"); pollNow() runs wherever it is called.
  let lease: Lease | null = null;
  app.addHook('onReady', async () => {
    const held = await startJobLease(app, 'wagering-poller');
    lease = held;
    poller = startPoller(job, { intervalMs, log, when: () => held.held() });
  });
  app.addHook('onClose', async () => {
    await poller?.stop();
    await lease?.stop();
  });

  await app.register(routes);
}

export default fp(bonus, { name: 'bonus', dependencies: ['db', 'auth', 'wallet', 'statement'] });
