import crypto from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { DepositHoldSource, PlayLimitKind, PlayRestrictionsTable } from '../../db/schema-play';
import { AppError, unprocessable } from '../../errors';
import { writeStatement } from '../../ledger';
import { prepared } from '../../db/prepared';
import { depositUsage, loadLimits, loadPlayState, lossUsage, restrictionReadWith, restrictionThatCounts, windowStart, WINDOWS, type ResolvedLimit, type Window } from './windows';

/**
 * The checks other services call (docs/responsible-play.md "Enforcement"). The money checks take the caller's
 * transaction and must run after its lockPlayer, so that a parallel request of the same player waits and then sees
 * this one's deposit or reservation. `now` is the app's clock (app.clock.now()).
 */

const forbidden = (code: string) => new AppError(403, code);

/** The restriction running at `now`, if any; with several, the one that ends last (an exclusion over a time-out when both end together). */
const runningRestrictions = prepared((db, a: { player_id: number; now: string }) =>
  db.selectFrom('play_restrictions').selectAll().where('player_id', '=', a.player_id).where('ends_at', '>', a.now).orderBy('ends_at', 'desc').orderBy('id', 'desc'),
);
const sessionStart = prepared((db, a: { id: string }) => db.selectFrom('sessions').select('created_at').where('id', '=', a.id));

export async function activeRestriction(db: Kysely<DB>, playerId: number, now: Date): Promise<Selectable<PlayRestrictionsTable> | undefined> {
  return restrictionThatCounts(await runningRestrictions.all(db, { player_id: playerId, now: now.toISOString() }));
}

/**
 * The guard of every play route: 403 SELF_EXCLUDED or PLAY_TIMEOUT while a restriction runs, 403 SESSION_LIMIT
 * once the session (sessions.created_at of `sessionId`) is older than the player's session limit, counted in
 * minutes of `minuteMs` (config.playMinuteMs: PLAY_MINUTE_MS).
 */
export async function assertMayPlay(db: Kysely<DB>, playerId: number, sessionId: string, now: Date, minuteMs: number, limits?: Limits): Promise<void> {
  // Issue 43: the restriction and the limits are one statement (loadPlayState; 2 -> 1 round trip on PostgreSQL). Limits
  // handed in by the caller (loadLimits, at this same instant) bring the restriction read with them.
  const given = limits ? restrictionReadWith(limits, now) : null;
  const state = limits ? (given ? { limits, restriction: given.restriction } : { limits, restriction: await activeRestriction(db, playerId, now) }) : await loadPlayState(db, playerId, now, ['session']);
  const r = state.restriction;
  if (r) throw forbidden(r.kind === 'EXCLUSION' ? 'SELF_EXCLUDED' : 'PLAY_TIMEOUT');
  const { session } = state.limits;
  if (session.value === null || !sessionId) return;
  const s = await sessionStart.first(db, { id: sessionId });
  if (!s) return;
  if (now.getTime() - Date.parse(s.created_at) >= session.value * minuteMs) throw forbidden('SESSION_LIMIT');
}

/**
 * The player's limits as loadLimits resolved them, for a caller that runs several checks in one transaction: a wallet
 * -> game transfer passes them to assertMayPlay and checkLossAllowed (one read of play_limits instead of two; read
 * them in the same transaction as the checks).
 */
export type Limits = Record<PlayLimitKind, ResolvedLimit>;

async function withinLimits(db: Kysely<DB>, playerId: number, amount: number, now: Date, prefix: 'deposit' | 'loss', given?: Limits): Promise<boolean> {
  const kinds = WINDOWS.map((w) => `${prefix}_${w}` as PlayLimitKind);
  const limits = given ?? (await loadLimits(db, playerId, now, kinds));
  const usage = prefix === 'deposit' ? depositUsage : lossUsage;
  for (const w of WINDOWS as Window[]) {
    const limit = limits[`${prefix}_${w}` as PlayLimitKind].value;
    if (limit === null) continue;
    if ((await usage(db, playerId, windowStart(now, w))) + amount > limit) return false;
  }
  return true;
}

/** At credit time: may `amountSatang` more be deposited now? false: hold it (holdDeposit) instead of crediting. */
export async function depositWithinLimits(trx: Kysely<DB>, playerId: number, amountSatang: number, now: Date): Promise<boolean> {
  return withinLimits(trx, playerId, amountSatang, now, 'deposit');
}

/** Before a deposit is offered (QR creation, gift-link reservation): 422 DEPOSIT_LIMIT when it would pass a deposit limit. */
export async function checkDepositAllowed(trx: Kysely<DB>, playerId: number, amountSatang: number, now: Date): Promise<void> {
  if (!(await withinLimits(trx, playerId, amountSatang, now, 'deposit'))) throw unprocessable('DEPOSIT_LIMIT');
}

/** Wallet -> game: 422 LOSS_LIMIT when losing all of `amountSatang` would pass a loss limit. */
export async function checkLossAllowed(trx: Kysely<DB>, playerId: number, amountSatang: number, now: Date, limits?: Limits): Promise<void> {
  if (!(await withinLimits(trx, playerId, amountSatang, now, 'loss', limits))) throw unprocessable('LOSS_LIMIT');
}

export interface HoldInput {
  playerId: number;
  source: DepositHoldSource;
  /** The qr, slip or gift id (unique: a deposit is held once). */
  refId: string;
  /** Satang, > 0. */
  amount: number;
  currency: string;
  now: Date;
  /** The statement line's "from" (KBANK, the slip's bank, TRUEMONEY...); defaults to the source in capitals. */
  from?: string;
}

/**
 * Holds money that arrived beyond a deposit limit, in the caller's credit transaction: a deposit_holds row (HELD,
 * reason DEPOSIT_LIMIT) and a statement line deposit / IN_PROGRESS (ref_type 'hold', ref_id the hold id). Nothing
 * is credited. Returns the hold id.
 */
export async function holdDeposit(trx: Transaction<DB>, h: HoldInput): Promise<string> {
  const id = `hld_${crypto.randomBytes(16).toString('hex')}`;
  const at = h.now.toISOString();
  await trx
    .insertInto('deposit_holds')
    .values({
      id,
      player_id: h.playerId,
      source: h.source,
      ref_id: h.refId,
      amount: h.amount,
      currency: h.currency,
      reason: 'DEPOSIT_LIMIT',
      status: 'HELD',
      created_at: at,
      updated_at: at,
    })
    .execute();
  await writeStatement(trx, {
    playerId: h.playerId,
    type: 'deposit',
    status: 'IN_PROGRESS',
    from: h.from ?? h.source.toUpperCase(),
    to: 'WALLET',
    amount: h.amount,
    currency: h.currency,
    refType: 'hold',
    refId: id,
  });
  return id;
}
