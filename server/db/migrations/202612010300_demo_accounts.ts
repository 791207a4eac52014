import type { Kysely } from 'kysely';
import { verifyPassword } from '../../lib/password';

/**
 * Issue 39 row 5, demo never meets real money (docs/staff.md "Demo"):
 * staff_users.demo and players.demo mark the accounts the demo seed made (1) apart from real ones (0), so that a
 * start with DEMO off can disable them and their sign-in can be refused without trusting their names.
 * Databases seeded before this migration: an account is marked when it still has the demo's public login, the
 * staff `support` / `support-demo-1` and `payments` / `payments-demo-1`, or the player 0812345678 / demo1234. A real
 * account that merely has one of those names keeps 0 (its password is not the published one). The logins are
 * written out here, not imported, so this migration stays as it was written.
 */
const DEMO_STAFF_LOGINS: ReadonlyArray<[string, string]> = [
  ['support', 'support-demo-1'],
  ['payments', 'payments-demo-1'],
];
const DEMO_PLAYER_LOGIN: [string, string] = ['0812345678', 'demo1234'];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('staff_users').addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('players').addColumn('demo', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  for (const [username, password] of DEMO_STAFF_LOGINS) {
    const row = await db.selectFrom('staff_users').select(['id', 'password_hash']).where('username', '=', username).executeTakeFirst();
    if (row && (await verifyPassword(password, row.password_hash))) await db.updateTable('staff_users').set({ demo: 1 }).where('id', '=', row.id).execute();
  }
  const [phone, password] = DEMO_PLAYER_LOGIN;
  const player = await db.selectFrom('players').select(['id', 'password_hash']).where('phone', '=', phone).executeTakeFirst();
  if (player && (await verifyPassword(password, player.password_hash))) await db.updateTable('players').set({ demo: 1 }).where('id', '=', player.id).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('players').dropColumn('demo').execute();
  await db.schema.alterTable('staff_users').dropColumn('demo').execute();
}
