import type { Kysely } from 'kysely';

/**
 * Issue 12: which market's players can hold an account at a bank (th | lao), so that the Thai build offers Thai
 * banks and the Lao build Lao banks (GET /api/lookup/banks?market=). Every existing bank is Thai except BCEL;
 * the Lao banks the operator lists are seeded (server/db/seed.ts) and can be added with market 'lao'.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('banks').addColumn('market', 'varchar(8)', (c) => c.notNull().defaultTo('th')).execute();
  await db.updateTable('banks').set({ market: 'lao' }).where('code', '=', 'BCEL').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('banks').dropColumn('market').execute();
}
