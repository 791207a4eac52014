import crypto from 'node:crypto';
import type { Kysely } from 'kysely';

/**
 * Issue 14, the back office's payments under review (docs/staff.md "Back office: payments under review and
 * payouts"): money that arrived and was not credited automatically, one row per payment for staff to approve
 * (credited once through the ledger) or reject (the reason reaches the player's statement: statements.note).
 *
 * Backfilled from what was recorded before: qr.paid events answered AMOUNT_MISMATCH, QR_EXPIRED, QR_CANCELLED,
 * QR_ALREADY_PAID or UNKNOWN_REFERENCE; deposit holds still HELD; and slips refused NOT_MATCH (their amount is the
 * bank's, told by the slip verifier before the sender check), one review per bank reference, left out when the
 * reference was since claimed (credited or refused on the slip itself).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('payment_reviews')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey()) // 'rev_' + 128 random bits, hex
    .addColumn('kind', 'varchar(24)', (c) => c.notNull())
    .addColumn('source', 'varchar(8)', (c) => c.notNull()) // qr | slip | gift | webhook
    .addColumn('reference', 'varchar(128)', (c) => c.notNull())
    .addColumn('event_id', 'varchar(128)', (c) => c.notNull().defaultTo('')) // the payment event, '' when none
    .addColumn('subject_id', 'varchar(64)') // qr id, hold id or slip id
    .addColumn('player_id', 'bigint', (c) => c.references('players.id'))
    .addColumn('amount', 'bigint', (c) => c.notNull())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // OPEN | APPROVED | REJECTED
    .addColumn('decided_by', 'bigint', (c) => c.references('staff_users.id'))
    .addColumn('decided_at', 'varchar(32)')
    .addColumn('reason', 'text')
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
    .addUniqueConstraint('payment_reviews_ref', ['source', 'reference', 'kind', 'event_id'])
    .execute();
  await db.schema.createIndex('payment_reviews_status').on('payment_reviews').columns(['status', 'created_at']).execute();
  await db.schema.alterTable('statements').addColumn('note', 'text').execute();

  const now = new Date().toISOString();
  const rows: Record<string, unknown>[] = [];
  const add = (r: { kind: string; source: string; reference: string; event_id?: string; subject_id: string | null; player_id: unknown; amount: unknown; currency: string; created_at: string }) =>
    rows.push({
      id: `rev_${crypto.randomBytes(16).toString('hex')}`,
      event_id: '',
      ...r,
      player_id: r.player_id === null || r.player_id === undefined ? null : Number(r.player_id),
      amount: Number(r.amount),
      status: 'OPEN',
      decided_by: null,
      decided_at: null,
      reason: null,
      updated_at: now,
    });

  const events = await db
    .selectFrom('payment_events as e')
    .leftJoin('qr_deposits as q', 'q.id', 'e.reference')
    .select(['e.id', 'e.reference', 'e.amount', 'e.outcome', 'e.received_at', 'q.id as qr_id', 'q.player_id', 'q.currency'])
    .where('e.type', '=', 'qr.paid')
    .where('e.outcome', 'in', ['AMOUNT_MISMATCH', 'QR_EXPIRED', 'QR_CANCELLED', 'QR_ALREADY_PAID', 'UNKNOWN_REFERENCE'])
    .where('e.amount', '>', 0)
    .execute();
  for (const e of events) {
    add({
      kind: e.outcome,
      source: e.qr_id ? 'qr' : 'webhook',
      reference: e.reference,
      event_id: e.id,
      subject_id: e.qr_id ?? null,
      player_id: e.player_id ?? null,
      amount: e.amount,
      currency: e.currency ?? 'THB',
      created_at: e.received_at,
    });
  }

  const holds = await db
    .selectFrom('deposit_holds as h')
    .leftJoin('slips as s', 's.id', 'h.ref_id')
    .leftJoin('gift_redemptions as g', 'g.id', 'h.ref_id')
    .select(['h.id', 'h.source', 'h.ref_id', 'h.player_id', 'h.amount', 'h.currency', 'h.created_at', 's.reference as slip_ref', 'g.voucher_id'])
    .where('h.status', '=', 'HELD')
    .execute();
  for (const h of holds) {
    const reference = h.source === 'slip' ? (h.slip_ref ?? h.ref_id) : h.source === 'gift' ? (h.voucher_id ?? h.ref_id) : h.ref_id;
    add({ kind: 'DEPOSIT_LIMIT', source: h.source, reference, subject_id: h.id, player_id: h.player_id, amount: h.amount, currency: h.currency, created_at: h.created_at });
  }

  const slips = await db
    .selectFrom('slips as s')
    .select(['s.id', 's.reference', 's.player_id', 's.amount', 's.currency', 's.created_at'])
    .where('s.status', '=', 'FAILED')
    .where('s.note', '=', 'NOT_MATCH')
    .where('s.reference', 'is not', null)
    .where('s.amount', '>', 0)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('slips as c').select('c.id').whereRef('c.reference_claim', '=', 's.reference'))))
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute();
  const seen = new Set<string>();
  for (const s of slips) {
    if (seen.has(s.reference)) continue; // one transfer, one review: the first upload's
    seen.add(s.reference);
    add({ kind: 'SLIP_NOT_MATCH', source: 'slip', reference: s.reference, subject_id: s.id, player_id: s.player_id, amount: s.amount, currency: s.currency, created_at: s.created_at });
  }

  for (let i = 0; i < rows.length; i += 200) await db.insertInto('payment_reviews').values(rows.slice(i, i + 200)).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('statements').dropColumn('note').execute();
  await db.schema.dropTable('payment_reviews').execute();
}
