import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { BonusDefinitionsTable, BonusKind, UserBonusesTable } from '../../db/schema-bonus';
import { nowIso } from '../../db';

/** SQL of the bonus work: every function takes the database (or a transaction) first. */
type Db = Kysely<DB> | Transaction<DB>;

export type Definition = BonusDefinitionsTable;
export type UserBonus = Omit<UserBonusesTable, 'id' | 'debt'> & { id: number; debt: number };

const num = (v: unknown) => Number(v);

function toUserBonus(r: Record<string, unknown>): UserBonus {
  const u = r as unknown as UserBonus;
  return {
    ...u,
    id: num(u.id),
    player_id: num(u.player_id),
    active_player_id: u.active_player_id == null ? null : num(u.active_player_id),
    amount: num(u.amount),
    start_amount: num(u.start_amount),
    target: num(u.target),
    percent_fail_bp: num(u.percent_fail_bp),
    fail_at: num(u.fail_at),
    needs_check: num(u.needs_check),
    cleared_amount: u.cleared_amount == null ? null : num(u.cleared_amount),
    debt: num(u.debt ?? 0),
  };
}

export function findDefinition(db: Db, code: string): Promise<Definition | undefined> {
  return db.selectFrom('bonus_definitions').selectAll().where('code', '=', code).executeTakeFirst();
}

export function listDefinitions(db: Db, kind?: BonusKind): Promise<Definition[]> {
  let q = db.selectFrom('bonus_definitions').selectAll();
  if (kind) q = q.where('kind', '=', kind);
  return q.orderBy('sort').orderBy('code').execute();
}

/** Inserts or replaces a definition; created_at is kept on update. */
export async function upsertDefinition(db: Db, row: Omit<Definition, 'created_at' | 'updated_at'>, now = new Date()): Promise<'added' | 'updated'> {
  const existed = await findDefinition(db, row.code);
  const at = nowIso(now);
  await db
    .insertInto('bonus_definitions')
    .values({ ...row, created_at: at, updated_at: at })
    .onConflict((oc) => oc.column('code').doUpdateSet({ ...row, updated_at: at }))
    .execute();
  return existed ? 'updated' : 'added';
}

export async function setDefinitionActive(db: Db, code: string, active: boolean, now = new Date()): Promise<boolean> {
  const r = await db.updateTable('bonus_definitions').set({ active: active ? 1 : 0, updated_at: nowIso(now) }).where('code', '=', code).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export async function findActiveBonus(db: Db, playerId: number): Promise<UserBonus | undefined> {
  const r = await db.selectFrom('user_bonuses').selectAll().where('player_id', '=', playerId).where('status', '=', 'ACTIVE').executeTakeFirst();
  return r ? toUserBonus(r) : undefined;
}

/** How many times the player received this code since an instant (ever when null). */
export async function countReceived(db: Db, playerId: number, code: string, since: Date | null): Promise<number> {
  let q = db
    .selectFrom('user_bonuses')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('player_id', '=', playerId)
    .where('code', '=', code);
  if (since) q = q.where('created_at', '>=', nowIso(since));
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/** Every bonus the player received, oldest first. */
export async function listUserBonuses(db: Db, playerId: number): Promise<UserBonus[]> {
  const rows = await db.selectFrom('user_bonuses').selectAll().where('player_id', '=', playerId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toUserBonus);
}

export async function insertUserBonus(trx: Db, row: Omit<UserBonusesTable, 'id' | 'debt'>): Promise<number> {
  const r = await trx.insertInto('user_bonuses').values(row).returning('id').executeTakeFirstOrThrow();
  return Number(r.id);
}

/** Turnover done on a bonus: the bets of the rounds attributed to it (satang). */
export async function turnoverOf(db: Db, userBonusId: number): Promise<number> {
  const r = await db
    .selectFrom('bet_rounds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('bet'), eb.val(0)).as('s'))
    .where('user_bonus_id', '=', userBonusId)
    .executeTakeFirstOrThrow();
  return Number(r.s);
}

/** Ends an ACTIVE bonus (conditional: returns false when it was no longer active). */
export async function endUserBonus(
  trx: Db,
  id: number,
  status: 'SUCCESS' | 'FAILED' | 'CLEARED',
  at: Date,
  clearedAmount: number | null = null,
  /** What is still to be taken back (takeback.ts); withdrawals wait while it is above 0. */
  debt = 0,
): Promise<boolean> {
  const r = await trx
    .updateTable('user_bonuses')
    .set({ status, active_player_id: null, needs_check: 0, ended_at: nowIso(at), updated_at: nowIso(at), cleared_amount: clearedAmount, debt })
    .where('id', '=', id)
    .where('status', '=', 'ACTIVE')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Active bonuses with rounds not evaluated yet, by id after `afterId`, a page at a time. */
export async function listBonusesToCheck(db: Db, afterId: number, limit: number): Promise<UserBonus[]> {
  const rows = await db
    .selectFrom('user_bonuses')
    .selectAll()
    .where('status', '=', 'ACTIVE')
    .where('needs_check', '>', 0)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map(toUserBonus);
}

/** Marks a bonus evaluated, unless rounds arrived meanwhile (the mark moved on: it stays for the next pass). */
export async function clearCheckMark(db: Db, id: number, seen: number): Promise<void> {
  await db.updateTable('user_bonuses').set({ needs_check: 0 }).where('id', '=', id).where('needs_check', '=', seen).execute();
}

/** Money a player's game transfers hold in transit right now (pending, either direction), satang. */
export async function pendingTransferTotal(db: Db, playerId: number): Promise<number> {
  const r = await db
    .selectFrom('game_transfers')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('amount'), eb.val(0)).as('s'))
    .where('player_id', '=', playerId)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(r.s);
}

/** The latest refund the player received, if any. */
export function lastRefund(db: Db, playerId: number) {
  return db.selectFrom('refunds').selectAll().where('player_id', '=', playerId).orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** Net loss (bets - wins) of the player's rounds no refund has counted yet, satang (negative: a net win). */
export async function unrefundedNetLoss(db: Db, playerId: number): Promise<number> {
  const r = await db
    .selectFrom('bet_rounds')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>(eb('bet', '-', eb.ref('win'))), eb.val(0)).as('s'))
    .where('player_id', '=', playerId)
    .where('refund_id', 'is', null)
    // An open seamless round (its win still to come) is not a loss yet: refund.ts leaves it for later too.
    .where('open', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(r.s);
}

/** Whether a bonus of the player failed after an instant (ever when null). */
export async function bonusFailedSince(db: Db, playerId: number, since: string | null): Promise<boolean> {
  let q = db.selectFrom('user_bonuses').select('id').where('player_id', '=', playerId).where('status', '=', 'FAILED');
  if (since) q = q.where('ended_at', '>', since);
  return !!(await q.limit(1).executeTakeFirst());
}
