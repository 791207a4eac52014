import type { Kysely } from 'kysely';

/**
 * Issue 39 row 3: upload budgets that hold across server processes (server/lib/upload-quota.ts). One row per
 * upload per budget it was charged to (`key`: `addr:<ip>`, `guest:<id>` or `player:<id>`), summed over a sliding
 * window; a lock row per key queues the uploads of one budget (its upsert takes the row lock on PostgreSQL; SQLite
 * transactions are serial), so parallel uploads cannot all pass one sum. The retention job prunes both, and finds
 * the slip of a stored picture by its file name (server/jobs/upload-retention.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('upload_quota_locks')
    .addColumn('key', 'varchar(120)', (c) => c.primaryKey())
    .addColumn('touched_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('upload_quota_uses')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('key', 'varchar(120)', (c) => c.notNull())
    .addColumn('at', 'varchar(32)', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('upload_quota_uses_key_at').on('upload_quota_uses').columns(['key', 'at']).execute();
  await db.schema.createIndex('upload_quota_uses_at').on('upload_quota_uses').column('at').execute();
  await db.schema.createIndex('slips_file_name').on('slips').column('file_name').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('slips_file_name').execute();
  await db.schema.dropTable('upload_quota_uses').execute();
  await db.schema.dropTable('upload_quota_locks').execute();
}
