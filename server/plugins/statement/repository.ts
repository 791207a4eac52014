import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { StatementsTable } from '../../db/schema-ledger';

/** The statement's type filter (issue 40 item 5): `bonus` is a bonus received and its end (finish_bonus). */
export const STATEMENT_FILTERS = ['deposit', 'withdraw', 'transfer', 'bonus'] as const;
export type StatementFilter = (typeof STATEMENT_FILTERS)[number];
const TYPES_OF: Record<StatementFilter, StatementsTable['statement_type'][]> = {
  deposit: ['deposit'],
  withdraw: ['withdraw'],
  transfer: ['transfer'],
  bonus: ['bonus', 'finish_bonus'],
};

/**
 * The statement screen's read queries; the lines are written by server/ledger/statement.ts. A line of money under
 * staff review carries the review's kind (why it is in progress), joined from payment_reviews.
 */
export async function listStatements(db: Kysely<DB>, playerId: number, page: number, limit: number, filter?: StatementFilter) {
  const types = filter ? TYPES_OF[filter] : null;
  const total = await db
    .selectFrom('statements')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('player_id', '=', playerId)
    .$if(types !== null, (q) => q.where('statement_type', 'in', types!))
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('statements as s')
    .leftJoin('payment_reviews as r', (join) => join.onRef('r.id', '=', 's.ref_id').on('s.ref_type', '=', 'review'))
    .selectAll('s')
    .select('r.kind as review_kind')
    .where('s.player_id', '=', playerId)
    .$if(types !== null, (q) => q.where('s.statement_type', 'in', types!))
    .orderBy('s.created_at', 'desc')
    .orderBy('s.id', 'desc')
    .limit(limit)
    .offset((page - 1) * limit)
    .execute();
  return { total: Number(total.n), rows };
}
