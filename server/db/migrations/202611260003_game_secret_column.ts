import { sql, type Kysely } from 'kysely';
import { isPostgres } from '../portable';

/**
 * Issue 11: game passwords are stored sealed (AES-256-GCM, `v1:` + base64url of IV, tag and ciphertext: about
 * 40 characters more than the password). varchar(128) would refuse a provider password longer than about 65
 * bytes on PostgreSQL; the column becomes text. SQLite does not enforce varchar lengths: nothing to do there.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`alter table game_accounts alter column password type text`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await sql`alter table game_accounts alter column password type varchar(128)`.execute(db);
}
