/** The audit log's staff route (docs/staff.md "Back office: players and the audit log"; admin only). */
import { call } from '../staffApi';

export interface AuditEntry {
  id: number;
  staff: { id: number; username: string; name: string };
  action: string;
  subjectType: string;
  subjectId: string;
  reason: string | null;
  detail: Record<string, unknown> | null;
  createdAt: string;
}

/** How many entries one page asks for. */
export const AUDIT_PAGE = 50;

export const auditApi = {
  /** Newest first; `before` an entry id to continue below it. */
  list: (before?: number, limit = AUDIT_PAGE) =>
    call<{ entries: AuditEntry[] }>('GET', `/api/staff/audit?limit=${limit}${before === undefined ? '' : `&before=${before}`}`),
};
