import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';

/**
 * The append-only staff audit log (issue 14, docs/staff.md "Audit log"): one staff_audit row per staff action.
 * The table's triggers refuse UPDATE and DELETE on SQLite and PostgreSQL.
 */
export interface StaffAction {
  staffId: number;
  action: string;
  subjectType: string;
  subjectId: string;
  reason?: string | null;
  detail?: Record<string, unknown>;
  /** The HTTP request of the action (its X-Request-Id), to match the row with the request's log lines. */
  requestId?: string;
}

/** Appends one row; call it inside the transaction of the action itself (trx) so both land or neither. */
export async function recordStaffAction(db: Kysely<DB> | Transaction<DB>, a: StaffAction, now: Date): Promise<void> {
  await db
    .insertInto('staff_audit')
    .values({
      staff_id: a.staffId,
      action: a.action,
      subject_type: a.subjectType,
      subject_id: a.subjectId,
      reason: a.reason ?? null,
      detail: a.detail === undefined ? null : JSON.stringify(a.detail),
      request_id: a.requestId ?? null,
      created_at: now.toISOString(),
    })
    .execute();
}
