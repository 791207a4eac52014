/** The audit log's staff route (docs/staff.md "Back office: players and the audit log"; admin only). */
import { staffApi } from '../staffApi';

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

export interface AuditPage {
  entries: AuditEntry[];
}

/** The log so far, newest first: each older page holds only entries below the one it continued from. */
export function selectAuditEntries(data: { pages: AuditPage[]; pageParams: (number | null)[] }): AuditEntry[] {
  return data.pages.flatMap((page, i) => {
    const before = data.pageParams[i];
    return before === null || before === undefined ? page.entries : page.entries.filter((e) => e.id < before);
  });
}

export const auditApi = staffApi.injectEndpoints({
  endpoints: (build) => ({
    /** Newest first, a page at a time; each older page asks `before` the oldest entry shown. */
    auditLog: build.infiniteQuery<AuditPage, void, number | null>({
      query: ({ pageParam }) => `/api/staff/audit?limit=${AUDIT_PAGE}${pageParam === null ? '' : `&before=${pageParam}`}`,
      infiniteQueryOptions: {
        initialPageParam: null,
        // A full page may have older entries below it; a short one was the start of the log.
        getNextPageParam: (last) => (last.entries.length >= AUDIT_PAGE ? last.entries[last.entries.length - 1].id : undefined),
      },
    }),
  }),
});

export const { useAuditLogInfiniteQuery } = auditApi;
