import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { toBaht } from '../../ledger/money';
import { listStatements, STATEMENT_FILTERS, type StatementFilter } from './repository';
import { statementRef } from '../../../shared/statement-ref';
import { errorBody, pageBody } from '../../lib/wire-schemas';

/** The player's statement lines, for the back office's player lookup. */
export { listStatements };

type StatementRow = Awaited<ReturnType<typeof listStatements>>['rows'][number];

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
    /** The short reference a player reads and tells support, `D-2612-4821` (issue 40, shared/statement-ref.ts). */
    ref: { type: 'string' },
    /**
     * Why a deposit waits for staff (issue 40): the review's kind (AMOUNT_MISMATCH, QR_EXPIRED, QR_CANCELLED,
     * QR_ALREADY_PAID, SLIP_NOT_MATCH) or DEPOSIT_LIMIT for a held deposit; only on such lines.
     */
    reason: { type: 'string' },
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

/** Why a line waits for staff: its review's kind, or a held deposit's limit. */
function reasonOf(r: StatementRow): string | null {
  if (r.ref_type === 'review') return r.review_kind ?? null;
  if (r.ref_type === 'hold') return 'DEPOSIT_LIMIT';
  return null;
}

/** A statements row as the wire shows it (statementItem). */
export function statementLine(r: StatementRow) {
  const reason = reasonOf(r);
  return {
    _id: String(r.id),
    ref: statementRef({ _id: String(r.id), statementType: r.statement_type, createdAt: r.created_at }),
    ...(reason ? { reason } : {}),
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

/** The list's body: a page, and optionally one type of line (issue 40). */
const statementBody = {
  ...pageBody,
  properties: { ...pageBody.properties, type: { type: 'string', enum: STATEMENT_FILTERS } },
} as const;

/** POST /api/statement {page, limit, type?} -> {total, statements} newest first (spec §3 "Statement entry"). */
async function statement(app: FastifyInstance) {
  app.post<{ Body: { page?: number; limit?: number; type?: StatementFilter } }>(
    '/api/statement',
    {
      onRequest: app.authenticate,
      schema: {
        body: statementBody,
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
      const { total, rows } = await listStatements(app.db, req.playerId, page, limit, req.body?.type);
      return {
        total,
        statements: rows.map(statementLine),
      };
    },
  );
}

export default fp(statement, { name: 'statement', dependencies: ['db', 'auth'] });
