import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { DepositTurnoverTable } from '../db/schema-bonus';
import { nowIso } from '../db';

/**
 * Rewards of a deposit that wait until the player has wagered it (issue 39 rows 7 and 11; docs/invite-wheel.md
 * "Wagered deposits"): the wheel coins a deposit earns and the invite earning of an invitee's first deposit. A deposit
 * is wagered once rounds played at or after it bet `multiple` x its amount; each round's bet goes to the player's
 * oldest open deposit of each reward made before the round, and turnover beyond every open deposit is not kept, so
 * play before a deposit (or a deposit that was already wagered) never pays for a later one: a deposit -> withdraw
 * churn with no play earns nothing. The rows are written in the deposit's transaction and met in the transaction
 * that stores the rounds (rounds.ts), so a reward is granted once, with the rounds that earned it.
 */

export type TurnoverPurpose = DepositTurnoverTable['purpose'];

/** Turnover that meets a deposit of `amount` satang at `multiple` x (at most 2 decimals), rounded up to the satang. */
export function requiredTurnover(amount: number, multiple: number): number {
  const x100 = Math.round(multiple * 100);
  if (!(amount > 0) || !(x100 > 0)) return 0;
  return Math.ceil((amount * x100) / 100);
}

/**
 * In the deposit's transaction: the reward waits for `required` satang of turnover (a row of deposit_turnover), or is
 * met at once when nothing is required (multiple 0). Returns true when met now: the caller grants it itself.
 */
export async function awaitTurnover(
  trx: Transaction<DB>,
  d: { playerId: number; purpose: TurnoverPurpose; depositRef: string; required: number; coins?: number; now: Date },
): Promise<boolean> {
  if (d.required <= 0) return true;
  await insertTurnover(trx, d).execute();
  return false;
}

/** awaitTurnover's row (`required` > 0), as an insert builder: a part of the deposit's movement (issue 43, moveMoney). */
export function insertTurnover(q: Kysely<DB>, d: { playerId: number; purpose: TurnoverPurpose; depositRef: string; required: number; coins?: number; now: Date }) {
  const at = nowIso(d.now);
  return q
    .insertInto('deposit_turnover')
    .values({ player_id: d.playerId, purpose: d.purpose, deposit_ref: d.depositRef, deposited_at: at, required: d.required, wagered: 0, coins: d.coins ?? 0, met_at: null, created_at: at })
    .onConflict((oc) => oc.columns(['deposit_ref', 'purpose']).doNothing());
}

export interface WageredRound {
  playerId: number;
  bet: number;
  /** ISO-8601 UTC, as bet_rounds.played_at. */
  playedAt: string;
}

export interface MetDeposit {
  id: number;
  playerId: number;
  purpose: TurnoverPurpose;
  depositRef: string;
  coins: number;
}

/**
 * In the transaction that stores a page of rounds (only rounds new to us): their bets go to the open deposits, and
 * the deposits they meet are marked met; coins are granted here (players.coin). Invite earnings read their met rows
 * (invite/qualify.ts). Returns the deposits met.
 */
export async function applyTurnover(trx: Transaction<DB>, rounds: WageredRound[], now: Date): Promise<MetDeposit[]> {
  const players = [...new Set(rounds.filter((r) => r.bet > 0).map((r) => r.playerId))];
  if (!players.length) return [];
  const open = await trx
    .selectFrom('deposit_turnover')
    .select(['id', 'player_id', 'purpose', 'deposit_ref', 'deposited_at', 'required', 'wagered', 'coins'])
    .where('player_id', 'in', players)
    .where('met_at', 'is', null)
    .orderBy('id')
    .execute();
  if (!open.length) return [];
  const rows = open.map((r) => ({ ...r, id: Number(r.id), playerId: Number(r.player_id), required: Number(r.required), wagered: Number(r.wagered), coins: Number(r.coins), changed: false, met: false }));
  for (const round of rounds) {
    for (const purpose of ['coins', 'invite'] as const) {
      let bet = round.bet;
      for (const row of rows) {
        if (bet <= 0) break;
        if (row.playerId !== round.playerId || row.purpose !== purpose || row.met || row.deposited_at > round.playedAt) continue;
        const take = Math.min(bet, row.required - row.wagered);
        row.wagered += take;
        row.changed = true;
        bet -= take;
        if (row.wagered >= row.required) row.met = true;
      }
    }
  }
  const at = nowIso(now);
  const met: MetDeposit[] = [];
  for (const row of rows) {
    if (!row.changed) continue;
    // Conditional on the row still being open: a page stored twice (never: the cursor lock) would not grant twice.
    const r = await trx
      .updateTable('deposit_turnover')
      .set({ wagered: row.wagered, met_at: row.met ? at : null })
      .where('id', '=', row.id)
      .where('met_at', 'is', null)
      .executeTakeFirst();
    if (!row.met || Number(r.numUpdatedRows) !== 1) continue;
    met.push({ id: row.id, playerId: row.playerId, purpose: row.purpose, depositRef: row.deposit_ref, coins: row.coins });
    if (row.purpose === 'coins' && row.coins > 0) {
      await trx.updateTable('players').set((eb) => ({ coin: eb('coin', '+', row.coins) })).where('id', '=', row.playerId).execute();
    }
  }
  return met;
}
