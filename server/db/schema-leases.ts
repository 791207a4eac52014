/** Leases of the jobs that run once across processes (migration 202611261710_job_leases, server/jobs/lease.ts). */
export interface JobLeasesTable {
  /** The job: `reconciler`, `wagering-poller`. */
  name: string;
  /** `${hostname}:${pid}:${random}` of the process holding it. */
  holder: string;
  /** ISO-8601 UTC; past it, any process may take the lease. */
  expires_at: string;
}

export interface LeaseTables {
  job_leases: JobLeasesTable;
}
