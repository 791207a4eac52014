/** Upload budgets (migration 202612010200_upload_quotas, server/db/upload-quota.ts). */
export interface UploadQuotaLocksTable {
  /** The budget: `addr:<client address>`, `guest:<guest id>` or `player:<player id>`. */
  key: string;
  /** ISO-8601 UTC of the last upload charged to it (the retention job prunes old rows). */
  touched_at: string;
}

/** One upload charged to one budget: what it reserved while in flight, then what was kept. */
export interface UploadQuotaUsesTable {
  id: string;
  key: string;
  /** ISO-8601 UTC (the app clock) the upload started. */
  at: string;
  bytes: number;
}

export interface UploadTables {
  upload_quota_locks: UploadQuotaLocksTable;
  upload_quota_uses: UploadQuotaUsesTable;
}
