import type { Kysely } from 'kysely';

/**
 * Issue 14: background jobs that must run once across server processes (the transfer reconciler, the bet-feed
 * poller) hold a lease (server/lib/lease.ts, docs/operations.md "Background jobs (leases)"). One row per job:
 * who holds it and until when (ISO-8601 UTC text, like every timestamp; compared as text).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('holder', 'varchar(200)', (c) => c.notNull())
    .addColumn('expires_at', 'varchar(32)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
}
