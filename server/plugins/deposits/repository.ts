import { sql, type Kysely, type Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { QrDepositsTable, SlipsTable } from '../../db/schema-deposits';
import { isPostgres } from '../../db/portable';
import { DEPOSIT_RULES_KEY, mergeDepositRules, type DepositRules } from './domain/rules';
import { lockPlayer } from '../../ledger';

/** SQL of the deposit flows. Functions take the db or a transaction first (STYLE.md "Repository"). */
type Db = Kysely<DB>;


export async function readDepositRules(db: Db): Promise<DepositRules> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', DEPOSIT_RULES_KEY).executeTakeFirst();
  return rulesOf(row?.value);
}

/** The rules of the stored setting's text (none, or text that is not JSON: the defaults). */
function rulesOf(value: string | undefined): DepositRules {
  let stored: unknown = null;
  try {
    stored = value ? JSON.parse(value) : null;
  } catch {
    stored = null;
  }
  return mergeDepositRules(stored);
}

export interface SlipSetting {
  isOpen: boolean;
  closeFrom: string | null;
  closeTo: string | null;
  uploadWindowMinutes: number;
}

/** The slip lookup's setting (owned by the lookups); missing means open, 60-minute window. */
export async function readSlipSetting(db: Db): Promise<SlipSetting> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'slip').executeTakeFirst();
  const fallback: SlipSetting = { isOpen: true, closeFrom: null, closeTo: null, uploadWindowMinutes: 60 };
  if (!row) return fallback;
  try {
    return { ...fallback, ...(JSON.parse(row.value) as Partial<SlipSetting>) };
  } catch {
    return fallback;
  }
}

export function findPlayer(db: Db, playerId: number) {
  return db
    .selectFrom('players')
    .select(['id', 'phone', 'name', 'bank_code', 'bank_account_no', 'bank_account_name', 'currency', 'status'])
    .where('id', '=', playerId)
    .executeTakeFirst();
}

/** The operator's receiving bank accounts (active bank rows of the deposit lookup). */
export function listReceivingAccounts(db: Db) {
  return db
    .selectFrom('deposit_channels')
    .select(['bank_code', 'account_no', 'account_name'])
    .where('kind', '=', 'bank')
    .where('active', '=', 1)
    .where('account_no', 'is not', null)
    .orderBy('sort')
    .execute();
}

// ---- QR deposits

export function findQr(db: Db, id: string) {
  return db.selectFrom('qr_deposits').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Locks the QR row for the rest of the transaction (PostgreSQL); SQLite transactions are already serial. */
export function lockQr(trx: Transaction<DB>, id: string) {
  let q = trx.selectFrom('qr_deposits').selectAll().where('id', '=', id);
  if (isPostgres(trx)) q = q.forUpdate();
  return q.executeTakeFirst();
}

export function findLiveQr(db: Db, playerId: number) {
  return db.selectFrom('qr_deposits').selectAll().where('live_player_id', '=', playerId).executeTakeFirst();
}

/** The player's most recent QR of a bank, whatever its status (the player's own only). */
export function findLastQr(db: Db, playerId: number, bank: string) {
  return db
    .selectFrom('qr_deposits')
    .selectAll()
    .where('player_id', '=', playerId)
    .where('bank_code', '=', bank)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** Ends the player's live QR, if any: CANCELLED, or EXPIRED when its time had run out. */
export async function endLiveQr(trx: Db, playerId: number, now: string): Promise<QrDepositsTable | undefined> {
  const live = await trx.selectFrom('qr_deposits').selectAll().where('live_player_id', '=', playerId).executeTakeFirst();
  if (!live) return undefined;
  await trx
    .updateTable('qr_deposits')
    .set({ status: live.expires_at <= now ? 'EXPIRED' : 'CANCELLED', live_player_id: null, updated_at: now })
    .where('id', '=', live.id)
    .where('status', '=', 'LIVE')
    .execute();
  return live;
}

export function insertQr(trx: Db, row: QrDepositsTable) {
  return trx.insertInto('qr_deposits').values(row).execute();
}

export function setQrStatus(trx: Db, id: string, set: Partial<Pick<QrDepositsTable, 'status' | 'paid_amount' | 'paid_event_id'>>, now: string) {
  return trx.updateTable('qr_deposits').set({ ...set, live_player_id: null, updated_at: now }).where('id', '=', id).execute();
}

/** QRs still waiting for payment (the demo bank page lists them). */
export function listLiveQrs(db: Db, now: string) {
  return db
    .selectFrom('qr_deposits')
    .innerJoin('players', 'players.id', 'qr_deposits.player_id')
    .select(['qr_deposits.id', 'qr_deposits.bank_code', 'qr_deposits.amount', 'qr_deposits.currency', 'qr_deposits.expires_at', 'players.phone', 'players.name'])
    .where('qr_deposits.status', '=', 'LIVE')
    .where('qr_deposits.expires_at', '>', now)
    .orderBy('qr_deposits.created_at', 'desc')
    .limit(100)
    .execute();
}

/**
 * The gateway's QRs whose payment may have arrived unheard (gateway-poll.ts): of its channels, not paid, with no
 * payment event naming them; LIVE and created before `createdBefore`, or LIVE, EXPIRED or CANCELLED whose expiry is
 * after `expiredAfter` (a payment can land at the expiry). Oldest first, from after `after` (the previous pass's last).
 */
export function listGatewayQrsToPoll(db: Db, q: { createdBefore: string; expiredAfter: string; after: { createdAt: string; id: string } | null; limit: number }) {
  let query = db
    .selectFrom('qr_deposits as q')
    .select(['q.id', 'q.created_at'])
    .where('q.bank_code', 'in', ['WW', 'E2P'])
    .where('q.status', 'in', ['LIVE', 'EXPIRED', 'CANCELLED'])
    .where('q.expires_at', '>', q.expiredAfter)
    .where('q.created_at', '<', q.createdBefore)
    .where('q.paid_event_id', 'is', null)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('payment_events as e').select('e.id').whereRef('e.reference', '=', 'q.id').where('e.type', '=', 'qr.paid'))));
  if (q.after) {
    const { createdAt, id } = q.after;
    query = query.where((eb) => eb.or([eb('q.created_at', '>', createdAt), eb.and([eb('q.created_at', '=', createdAt), eb('q.id', '>', id)])]));
  }
  return query.orderBy('q.created_at').orderBy('q.id').limit(q.limit).execute();
}

// ---- payment events

/**
 * Issue 43: the event's first outcome (undefined: not applied yet) and the deposit rules in ONE read, before a
 * payment event is applied (they were two round trips on PostgreSQL).
 */
export async function eventAndRules(db: Db, eventId: string): Promise<{ seen: { id: string; outcome: string; body_sha256: string } | undefined; rules: DepositRules }> {
  const row = await db
    .selectNoFrom((eb) => [
      eb.selectFrom('payment_events').select('outcome').where('id', '=', eventId).as('outcome'),
      eb.selectFrom('payment_events').select('body_sha256').where('id', '=', eventId).as('body_sha256'),
      eb.selectFrom('settings').select('value').where('key', '=', DEPOSIT_RULES_KEY).as('rules'),
    ])
    .executeTakeFirstOrThrow();
  return { seen: row.outcome == null ? undefined : { id: eventId, outcome: row.outcome, body_sha256: row.body_sha256 ?? '' }, rules: rulesOf(row.rules ?? undefined) };
}

/**
 * The QR `id` locked for the rest of the transaction with its player, in ONE statement (issue 43: the owner's read,
 * the player's lock and the QR's were three round trips on PostgreSQL): the player's row first, then the QR's, the
 * order QR creation takes them in (FOR NO KEY UPDATE OF p, then FOR UPDATE OF q: PostgreSQL locks a row's tables in
 * the order of its locking clauses). The QR is answered as it is once locked (a locking read returns the latest
 * version of the rows it locked), with the player's inviter (the invite earning's). SQLite transactions are serial.
 */
export function lockQrWithPlayer(trx: Transaction<DB>, id: string) {
  const q = trx.selectFrom('players as p').innerJoin('qr_deposits as q', 'q.player_id', 'p.id').selectAll('q').select('p.inviter_id').where('q.id', '=', id);
  return (isPostgres(trx) ? q.modifyEnd(sql`for no key update of p for update of q`) : q).executeTakeFirst();
}

export function findEvent(db: Db, id: string) {
  return db.selectFrom('payment_events').selectAll().where('id', '=', id).executeTakeFirst();
}

export function insertEvent(trx: Db, row: DB['payment_events']) {
  return trx.insertInto('payment_events').values(row).execute();
}

export function setEventOutcome(trx: Db, id: string, outcome: string) {
  return trx.updateTable('payment_events').set({ outcome }).where('id', '=', id).execute();
}

// ---- slips

/** Failed slips that count toward the player's slip limit (depositRules.slipNotMatchLimit). */
export const LIMITED_SLIP_NOTES = ['NOT_MATCH', 'INVALID_SLIP', 'IMG_SIZE_UNABLE_TO_PROCESS'];

/**
 * Records a new upload IN_PROGRESS unless the player is at the NOT_MATCH limit: NOT_MATCH (and unreadable) slips created since
 * `since`, plus the player's uploads still in progress (each may yet turn out NOT_MATCH), must stay below
 * `limit`. Counted and inserted under the player's row lock (PostgreSQL; SQLite transactions are serial), so
 * parallel uploads cannot all pass one count. False when refused (nothing inserted).
 */
export async function insertSlipWithinNotMatchLimit(db: Db, row: SlipsTable, since: string, limit: number): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (limit > 0) {
      await lockPlayer(trx, row.player_id);
      const { n } = await trx
        .selectFrom('slips')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('player_id', '=', row.player_id)
        .where('created_at', '>', since)
        // Unreadable slips count with the NOT_MATCH ones (issue 39): each took a slip reader's time, as a bomb would.
        .where((eb) => eb.or([eb.and([eb('status', '=', 'FAILED'), eb('note', 'in', LIMITED_SLIP_NOTES)]), eb('status', '=', 'IN_PROGRESS')]))
        .executeTakeFirstOrThrow();
      if (Number(n) >= limit) return false;
    }
    await trx.insertInto('slips').values(row).execute();
    return true;
  });
}

export function deleteSlip(db: Db, id: string) {
  return db.deleteFrom('slips').where('id', '=', id).execute();
}

export function updateSlip(db: Db, id: string, set: Partial<Omit<SlipsTable, 'id' | 'player_id'>>) {
  return db.updateTable('slips').set(set).where('id', '=', id).execute();
}

export function findClaimedReference(db: Db, reference: string) {
  return db.selectFrom('slips').select(['id', 'player_id']).where('reference_claim', '=', reference).executeTakeFirst();
}

export async function listSlips(db: Db, playerId: number, page: number, limit: number) {
  return db
    .selectFrom('slips')
    .selectAll()
    .where('player_id', '=', playerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
}

export function countSlips(db: Db, playerId: number) {
  return db.selectFrom('slips').select((eb) => eb.fn.countAll<number>().as('n')).where('player_id', '=', playerId).executeTakeFirstOrThrow();
}

export function findPlayerSlip(db: Db, playerId: number, id: string) {
  return db.selectFrom('slips').selectAll().where('id', '=', id).where('player_id', '=', playerId).executeTakeFirst();
}

/** The player's latest slip with this reference (a reference may repeat: the duplicates). */
export function findPlayerSlipByReference(db: Db, playerId: number, reference: string) {
  return db
    .selectFrom('slips')
    .selectAll()
    .where('player_id', '=', playerId)
    .where('reference', '=', reference)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

// ---- gift vouchers

export function insertGift(db: Db, row: DB['gift_redemptions']) {
  return db.insertInto('gift_redemptions').values(row).execute();
}

export function updateGift(db: Db, id: string, set: Partial<Pick<DB['gift_redemptions'], 'status' | 'amount' | 'reason' | 'updated_at'>>) {
  return db.updateTable('gift_redemptions').set(set).where('id', '=', id).execute();
}

export function deleteGift(db: Db, id: string) {
  return db.deleteFrom('gift_redemptions').where('id', '=', id).execute();
}

// ---- demo bank

export function insertDemoTransfer(db: Db, row: DB['demo_bank_transfers']) {
  return db.insertInto('demo_bank_transfers').values(row).execute();
}

export function findDemoTransfer(db: Db, transRef: string) {
  return db.selectFrom('demo_bank_transfers').selectAll().where('trans_ref', '=', transRef).executeTakeFirst();
}

export function listDemoTransfers(db: Db) {
  return db.selectFrom('demo_bank_transfers').selectAll().orderBy('created_at', 'desc').limit(20).execute();
}

export function listPlayerBankAccounts(db: Db) {
  return db
    .selectFrom('players')
    .select(['id', 'phone', 'name', 'bank_code', 'bank_account_no', 'bank_account_name'])
    .where('status', '=', 'active')
    .orderBy('id', 'desc')
    .limit(50)
    .execute();
}

export function listOpenWithdrawals(db: Db) {
  return db
    .selectFrom('withdrawals')
    .innerJoin('players', 'players.id', 'withdrawals.player_id')
    .select(['withdrawals.id', 'withdrawals.amount', 'withdrawals.currency', 'withdrawals.bank_code', 'withdrawals.bank_account_no', 'withdrawals.created_at', 'players.phone'])
    .where('withdrawals.status', '=', 'IN_PROGRESS')
    .orderBy('withdrawals.created_at', 'desc')
    .limit(100)
    .execute();
}
