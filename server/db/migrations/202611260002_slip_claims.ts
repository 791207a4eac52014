import type { Kysely } from 'kysely';

/**
 * Issue 11: a NOT_MATCH slip (the uploader's account did not send it) no longer claims its reference, so
 * another player's upload cannot block the owner's deposit (docs/deposits.md). Slips refused NOT_MATCH before
 * this change still hold their claim: release them, so those owners can upload their slips. The slip rows stay
 * (FAILED, note NOT_MATCH) for review. No schema change: `slips.reference_claim` stays unique.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.updateTable('slips').set({ reference_claim: null }).where('status', '=', 'FAILED').where('note', '=', 'NOT_MATCH').where('reference_claim', 'is not', null).execute();
}

/** Nothing to undo: which released claims were taken by the old rule is not kept. */
export async function down(): Promise<void> {}
