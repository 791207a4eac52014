import { sql, type Expression, type ExpressionBuilder, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { InviteEarningNote } from '../../db/schema-invite-wheel';
import { nowIso } from '../../db';
import { isPostgres } from '../../db/portable';
import { unprocessable } from '../../errors';
import { creditWallet, parseBaht, writeStatement, lockPlayer } from '../../ledger';
import { currencyOf } from '../../ledger/accounts';
import { inviteEarning, percentBp, readInviteSettings } from './settings';
import { awaitTurnover, requiredTurnover } from '../../wagering/deposit-turnover';
import { qualifyEarnings, refuseSharedBanks } from './qualify';

/**
 * The invite bonus (RULES.md "Refund, invite, wheel", docs/invite-wheel.md): the inviter earns invite% of each
 * invitee's FIRST deposit, recorded in the transaction that credits that deposit (no money moves then: it is an
 * earning to receive); it becomes receivable once the invitee wagered that deposit (qualify.ts); GET
 * /api/invite/bonus pays every receivable earning at once from invite_budget.
 */

type Db = Kysely<DB> | Transaction<DB>;

export interface FirstDeposit {
  playerId: number;
  /** Satang. */
  amount: number;
  currency: string;
  /** The deposit's own id (qr:..., slip:..., gift:...): the earning names deposit:{refId}. */
  refId: string;
}

/**
 * Called by creditDeposit inside the deposit's transaction, for every deposit: a player who was invited and has
 * no earning row yet gets one (amount 0 with a note when it earns nothing). The row is unique per invitee, so
 * of two first deposits racing only one writes it; the other's insert does nothing (never an error that would
 * roll the deposit back). Returns what the inviter earned, satang (0 when this was not a first deposit).
 */
export async function recordInviteEarning(trx: Transaction<DB>, d: FirstDeposit, now: Date): Promise<number> {
  const invitee = await trx.selectFrom('players').select(['inviter_id', 'bank_account_no']).where('id', '=', d.playerId).executeTakeFirst();
  if (!invitee || invitee.inviter_id === null) return 0;
  const inviterId = Number(invitee.inviter_id);
  if (await trx.selectFrom('invite_earnings').select('id').where('invitee_id', '=', d.playerId).executeTakeFirst()) return 0;
  const s = await readInviteSettings(trx);
  const inviter = await trx.selectFrom('players').select(['status', 'currency']).where('id', '=', inviterId).executeTakeFirst();
  const bp = percentBp(s.percent);
  let note: InviteEarningNote | null = null;
  if (inviterId === d.playerId) note = 'self';
  else if (!s.isActive) note = 'off';
  else if (!inviter || inviter.status !== 'active') note = 'closed';
  else if (inviter.currency !== d.currency) note = 'currency';
  else if (await trx.selectFrom('invite_earnings').select('id').where('bank_account_no', '=', invitee.bank_account_no).executeTakeFirst()) note = 'bank';
  const amount = note ? 0 : inviteEarning(d.amount, bp, s.cap === null ? null : parseBaht(s.cap));
  // Receivable once the invitee wagered this deposit (issue 39 row 7): qualify.ts makes it so, under the inviter's
  // lock with the daily cap. The turnover row is written only for the invitee that this insert makes the first.
  const required = amount > 0 ? requiredTurnover(d.amount, s.turnover) : 0;
  const inserted = await trx
    .insertInto('invite_earnings')
    .values({
      inviter_id: inviterId,
      invitee_id: d.playerId,
      deposit_ref: `deposit:${d.refId}`,
      deposit_amount: d.amount,
      amount,
      currency: inviter?.currency ?? d.currency,
      percent_bp: note ? 0 : bp,
      note,
      bank_account_no: invitee.bank_account_no,
      receipt_id: null,
      created_at: nowIso(now),
      // Nothing to wait for and no daily cap to share: receivable at once. Otherwise qualify.ts decides.
      qualified_at: amount <= 0 || (required <= 0 && s.dailyCap === null) ? nowIso(now) : null,
    })
    .onConflict((oc) => oc.column('invitee_id').doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1 && required > 0) {
    await awaitTurnover(trx, { playerId: d.playerId, purpose: 'invite', depositRef: `deposit:${d.refId}`, required, now });
  }
  return amount;
}

export interface InviteSummary {
  /** Satang earned and not received yet (in the player's wallet currency). */
  amount: number;
  /** Invitees who made a first deposit. */
  success: number;
  /** Invitees who have not. */
  fail: number;
}

/**
 * The three invite figures as two columns of a query over `players as me` (the player whose id is `id`): the open sum
 * (in the player's own currency, read from the same row) and the count of earnings come from one pass over the
 * player's earnings as a JSON pair, `invite_earnings` = [open, earned]; `invitees` counts the players they invited.
 * GET /api/wallet reads them in its one statement (server/plugins/wallet/view-query.ts, issue 13); `inviteSummaryOf`
 * turns them into the summary. Two subqueries over the same index range of invite_earnings were ~0.9 us of the row's
 * ~5.9 on SQLite (a loop over 30 rows of the bench's database).
 */
export function inviteFigureColumns(db: Kysely<DB>, eb: ExpressionBuilder<DB & { me: DB['players'] }, 'me'>, id: number | Expression<number>) {
  const open = isPostgres(db)
    ? sql`coalesce(sum(e.amount) filter (where e.receipt_id is null and e.qualified_at is not null and e.currency = ${eb.ref('me.currency')}), 0)`
    : sql`coalesce(sum(case when e.receipt_id is null and e.qualified_at is not null and e.currency = ${eb.ref('me.currency')} then e.amount end), 0)`;
  const pair = isPostgres(db) ? sql<unknown>`json_build_array(${open}, count(*))` : sql<unknown>`json_array(${open}, count(*))`;
  return [
    eb.selectFrom('invite_earnings as e').select(pair.as('f')).where('e.inviter_id', '=', id).as('invite_earnings'),
    eb.selectFrom('players as i').select((e) => e.fn.countAll<number>().as('n')).where('i.inviter_id', '=', id).as('invitees'),
  ] as const;
}

/** The summary from inviteFigureColumns' values (a missing player has nothing). */
export function inviteSummaryOf(row: { invite_earnings?: unknown; invitees?: unknown } | undefined): InviteSummary {
  const pair = typeof row?.invite_earnings === 'string' ? (JSON.parse(row.invite_earnings) as unknown[]) : (row?.invite_earnings as unknown[] | null | undefined);
  const success = Number(pair?.[1] ?? 0);
  return { amount: Number(pair?.[0] ?? 0), success, fail: Math.max(0, Number(row?.invitees ?? 0) - success) };
}

export async function inviteSummary(db: Db, playerId: number): Promise<InviteSummary> {
  const currency = await currencyOf(db as Kysely<DB>, playerId);
  const [open, earned, invitees] = await Promise.all([
    db
      .selectFrom('invite_earnings')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('s'))
      .where('inviter_id', '=', playerId)
      .where('receipt_id', 'is', null)
      .where('qualified_at', 'is not', null)
      .where('currency', '=', currency)
      .executeTakeFirstOrThrow(),
    db.selectFrom('invite_earnings').select((eb) => eb.fn.countAll<number>().as('n')).where('inviter_id', '=', playerId).executeTakeFirstOrThrow(),
    db.selectFrom('players').select((eb) => eb.fn.countAll<number>().as('n')).where('inviter_id', '=', playerId).executeTakeFirstOrThrow(),
  ]);
  const success = Number(earned.n);
  return { amount: Number(open.s), success, fail: Math.max(0, Number(invitees.n) - success) };
}

/**
 * GET /api/invite/bonus: INVITE_INACTIVE while invites are switched off; then, in one transaction under the
 * player's lock, a receipt claims every unreceived earning in the wallet's currency and sums them;
 * NO_INVITE_BONUS when that is nothing (the claim rolls back). Otherwise invite_budget -> wallet (entry
 * invite:{receiptId}) and a `bonus` statement line linked as invite. Returns satang.
 */
export async function receiveInviteBonus(db: Kysely<DB>, playerId: number, now: Date): Promise<number> {
  const s = await readInviteSettings(db);
  if (!s.isActive) throw unprocessable('INVITE_INACTIVE');
  // First, committed on its own (a receive that pays nothing rolls back): under the inviter's lock, earnings whose
  // deposits were wagered become receivable (the daily cap), and the bank rule is read again: an invitee whose bank
  // account is now another invitee's earns nothing (issue 39 row 7).
  await db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    await qualifyEarnings(trx, playerId, now, s);
    await refuseSharedBanks(trx, playerId);
  });
  return db.transaction().execute(async (trx) => {
    await lockPlayer(trx, playerId);
    const currency = await currencyOf(trx, playerId);
    const receipt = await trx
      .insertInto('invite_receipts')
      .values({ player_id: playerId, currency, amount: 0, earnings: 0, created_at: nowIso(now) })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = Number(receipt.id);
    // Claim first, then sum what was claimed: exactly the earnings this receipt pays, even with deposits landing.
    await trx
      .updateTable('invite_earnings')
      .set({ receipt_id: id })
      .where('inviter_id', '=', playerId)
      .where('receipt_id', 'is', null)
      .where('qualified_at', 'is not', null)
      .where('currency', '=', currency)
      .where('amount', '>', 0)
      .execute();
    const sum = await trx
      .selectFrom('invite_earnings')
      .select((eb) => [eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('s'), eb.fn.countAll<number>().as('n')])
      .where('receipt_id', '=', id)
      .executeTakeFirstOrThrow();
    const amount = Number(sum.s);
    if (amount <= 0) throw unprocessable('NO_INVITE_BONUS');
    await trx.updateTable('invite_receipts').set({ amount, earnings: Number(sum.n) }).where('id', '=', id).execute();
    await creditWallet(trx, { playerId, amount, from: 'invite_budget', kind: 'invite', reference: `invite:${id}` });
    await writeStatement(trx, {
      playerId,
      type: 'bonus',
      status: 'SUCCESS',
      from: 'INVITE',
      to: 'WALLET',
      amount,
      currency,
      refType: 'invite',
      refId: String(id),
      linked: { type: 'invite', description: String(Number(sum.n)) },
    });
    return amount;
  });
}

export interface InviteItem {
  name: string;
  /** Satang the inviter earned from this invitee (0 before their first deposit). */
  amount: number;
  createdAt: string;
}

/** POST /api/invite: the player's invitees, newest registration first. */
export async function listInvites(db: Db, playerId: number, page: number, limit: number): Promise<{ total: number; rows: InviteItem[] }> {
  const total = await db.selectFrom('players').select((eb) => eb.fn.countAll<number>().as('n')).where('inviter_id', '=', playerId).executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('players as p')
    .leftJoin('invite_earnings as e', 'e.invitee_id', 'p.id')
    .select(['p.name', 'p.created_at', 'e.amount'])
    .where('p.inviter_id', '=', playerId)
    .orderBy('p.created_at', 'desc')
    .orderBy('p.id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { total: Number(total.n), rows: rows.map((r) => ({ name: r.name, amount: Number(r.amount ?? 0), createdAt: r.created_at })) };
}
