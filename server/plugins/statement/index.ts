import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { toBaht } from '../../ledger/money';
import { listStatements } from './repository';
import { pageBody } from '../../lib/wire-schemas';

type StatementRow = Awaited<ReturnType<typeof listStatements>>['rows'][number];

const errorBody = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } as const;
const linked = { type: 'object', properties: { description: { type: 'string' } }, required: ['description'] } as const;

/** One statement line on the wire (POST /api/statement items; the back office's player lookup shows the same). */
export const statementItem = {
  type: 'object',
  properties: {
    _id: { type: 'string' },
    statementType: { type: 'string', enum: ['deposit', 'bonus', 'finish_bonus', 'withdraw', 'transfer'] },
    status: { type: 'string', enum: ['IN_PROGRESS', 'SUCCESS', 'FAILED'] },
    from: { type: 'string' },
    to: { type: 'string' },
    amount: { type: 'number' },
    createdAt: { type: 'string' },
    /** The movement's own id (transferId, withdrawalId, the deposit's reference): the receipt's reference (issue 12). */
    reference: { type: 'string' },
    bonus: linked,
    promotion: linked,
    invite: linked,
    refund: linked,
    luckydraw: linked,
    /** Why staff rejected this deposit (issue 14, docs/staff.md "Back office"); only on such lines. */
    note: { type: 'string' },
  },
  required: ['_id', 'statementType', 'status', 'from', 'to', 'amount', 'createdAt'],
} as const;

/**
 * The reference a statement line shows (issue 12 receipts): the movement's own id. A deposit's ref_id is
 * `{source}:{id}` (slip:{bank transaction ref}, qr:{qrcodeId}, gift:{voucherId}); the player knows it without the
 * source, as the slip, QR or gift answer gave it.
 */
export function statementReference(refType: string, refId: string): string {
  return refType === 'deposit' ? refId.replace(/^[a-z]+:/, '') : refId;
}

/** A statements row as the wire shows it (statementItem). */
export function statementLine(r: StatementRow) {
  return {
    _id: String(r.id),
    statementType: r.statement_type,
    status: r.status,
    from: r.from_account,
    to: r.to_account,
    amount: toBaht(Number(r.amount)),
    createdAt: r.created_at,
    reference: statementReference(r.ref_type, r.ref_id),
    ...(r.linked_type ? { [r.linked_type]: { description: r.linked_description ?? '' } } : {}),
    ...(r.note ? { note: r.note } : {}),
  };
}

/** POST /api/statement {page, limit} -> {total, statements} newest first (spec §3 "Statement entry"). */
async function statement(app: FastifyInstance) {
  app.post<{ Body: { page?: number; limit?: number } }>(
    '/api/statement',
    {
      onRequest: app.authenticate,
      schema: {
        body: pageBody,
        response: {
          200: { type: 'object', properties: { total: { type: 'integer' }, statements: { type: 'array', items: statementItem } }, required: ['total', 'statements'] },
          '4xx': errorBody,
          '5xx': errorBody,
        },
      },
    },
    async (req) => {
      const page = req.body?.page ?? 1;
      const limit = req.body?.limit ?? 10;
      const { total, rows } = await listStatements(app.db, req.playerId, page, limit);
      return {
        total,
        statements: rows.map(statementLine),
      };
    },
  );
}

export default fp(statement, { name: 'statement', dependencies: ['db', 'auth'] });
