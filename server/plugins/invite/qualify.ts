import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { nowIso } from '../../db';
import { parseBaht } from '../../ledger/money';
import { lockPlayer } from '../../ledger';
import { readBonusRules } from '../bonus/settings';
import { startOfDay } from '../bonus/zone';
import { readInviteSettings, type InviteSettings } from './settings';

/**
 * When an invite earning becomes receivable (issue 39 row 7, docs/invite-wheel.md "Against invite farming"): once the
 * invitee has wagered the first deposit `turnover` x (server/wagering/deposit-turnover.ts marks it met), and then at
 * most `dailyCap` baht of one inviter's earnings per calendar day (the bonus time zone, Asia/Bangkok by default): what
 * does not fit that day is not paid (note `cap` when nothing fits). Runs under the inviter's row lock, so two
 * qualifications never share one day's room: at receive time and in each wagering pass.
 */

/** In a transaction holding the inviter's lock: qualifies every waiting earning whose deposit was wagered. */
export async function qualifyEarnings(trx: Transaction<DB>, inviterId: number, now: Date, s: InviteSettings): Promise<number> {
  const waiting = await trx
    .selectFrom('invite_earnings as e')
    .leftJoin('deposit_turnover as t', (j) => j.onRef('t.deposit_ref', '=', 'e.deposit_ref').onRef('t.player_id', '=', 'e.invitee_id').on('t.purpose', '=', 'invite'))
    .select(['e.id', 'e.amount', 't.id as turnover_id', 't.met_at'])
    .where('e.inviter_id', '=', inviterId)
    .where('e.qualified_at', 'is', null)
    .orderBy('e.id')
    .execute();
  const ready = waiting.filter((w) => w.turnover_id === null || w.met_at !== null);
  if (!ready.length) return 0;
  const cap = s.dailyCap === null ? null : parseBaht(s.dailyCap);
  const dayStart = nowIso(startOfDay(now, (await readBonusRules(trx)).timeZone));
  const today = await trx
    .selectFrom('invite_earnings')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('s'))
    .where('inviter_id', '=', inviterId)
    .where('qualified_at', '>=', dayStart)
    .executeTakeFirstOrThrow();
  let used = Number(today.s);
  const at = nowIso(now);
  for (const w of ready) {
    const pay = cap === null ? Number(w.amount) : Math.max(0, Math.min(Number(w.amount), cap - used));
    used += pay;
    await trx
      .updateTable('invite_earnings')
      .set({ amount: pay, qualified_at: at, ...(pay === 0 ? { note: 'cap' as const, percent_bp: 0 } : {}) })
      .where('id', '=', Number(w.id))
      .where('qualified_at', 'is', null)
      .execute();
  }
  return ready.length;
}

/**
 * The bank rule read again at payout (in the receive's transaction): an unreceived earning whose invitee now holds a
 * bank account that another earning recorded (an earlier invitee's, who moved off it) earns nothing (note `bank`).
 * At the first deposit the rule read the invitee's account of that moment; an invitee may change it later.
 */
export async function refuseSharedBanks(trx: Transaction<DB>, inviterId: number): Promise<void> {
  await trx
    .updateTable('invite_earnings')
    .set({ amount: 0, note: 'bank', percent_bp: 0 })
    .where('inviter_id', '=', inviterId)
    .where('receipt_id', 'is', null)
    .where('amount', '>', 0)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('players as p')
          .innerJoin('invite_earnings as o', 'o.bank_account_no', 'p.bank_account_no')
          .select('p.id')
          .whereRef('p.id', '=', 'invite_earnings.invitee_id')
          .whereRef('o.id', '<>', 'invite_earnings.id'),
      ),
    )
    .execute();
}

/** The wagering pass's part: every inviter with an earning whose deposit was wagered (or needs none), each under its lock. */
export async function qualifyWaitingEarnings(db: Kysely<DB>, now: Date, limit = 200): Promise<number> {
  const rows = await db
    .selectFrom('invite_earnings as e')
    .leftJoin('deposit_turnover as t', (j) => j.onRef('t.deposit_ref', '=', 'e.deposit_ref').onRef('t.player_id', '=', 'e.invitee_id').on('t.purpose', '=', 'invite'))
    .select('e.inviter_id')
    .distinct()
    .where('e.qualified_at', 'is', null)
    .where((eb) => eb.or([eb('t.id', 'is', null), eb('t.met_at', 'is not', null)]))
    .orderBy('e.inviter_id')
    .limit(limit)
    .execute();
  if (!rows.length) return 0;
  const s = await readInviteSettings(db);
  let n = 0;
  for (const r of rows) {
    n += await db.transaction().execute(async (trx) => {
      await lockPlayer(trx, Number(r.inviter_id));
      return qualifyEarnings(trx, Number(r.inviter_id), now, s);
    });
  }
  return n;
}
