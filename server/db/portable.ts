import type { CreateTableBuilder, Kysely } from 'kysely';
import { PostgresAdapter } from 'kysely';

/**
 * Column helpers for migrations that must run unchanged on SQLite and PostgreSQL.
 * Conventions: ids are integers, money is bigint minor units (satang), timestamps are
 * ISO-8601 UTC text, booleans are integer 0/1.
 */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export function withId<T extends string>(db: Kysely<any>, tb: CreateTableBuilder<T, any>): CreateTableBuilder<T, any> {
  return isPostgres(db)
    ? tb.addColumn('id', 'bigserial', (c) => c.primaryKey())
    : tb.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** Whether a failed insert broke a unique or primary key constraint, on SQLite or PostgreSQL. */
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || err?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || /UNIQUE constraint failed/.test(err?.message ?? '');
}
