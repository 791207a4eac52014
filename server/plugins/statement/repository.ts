import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/** The statement screen's read queries; the lines are written by server/ledger/statement.ts. */
export async function listStatements(db: Kysely<DB>, playerId: number, page: number, limit: number) {
  const total = await db
    .selectFrom('statements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('player_id', '=', playerId)
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('statements')
    .selectAll()
    .where('player_id', '=', playerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { total: Number(total.n), rows };
}
