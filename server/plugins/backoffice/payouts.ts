import type { FastifyInstance } from 'fastify';
import type { PayoutAdapter, PayoutStatus } from '../../adapters/payouts';
import { conflict, notFound } from '../../errors';
import { toBaht } from '../../ledger/money';
import { recordStaffAction } from '../staff/audit';
import { callOf, type ProviderCall } from '../../lib/request-context';
import { actionReason } from './reviews';

/**
 * Back office: payouts in progress (docs/staff.md "Back office: payments under review and payouts"). Routes under
 * /api/staff/payouts, roles payments and admin. The list shows what the gateway says of each payout; settle and
 * fail go through the wallet's settlePayout (fail returns the money), with the audit row in its transaction.
 */

/** How long the list waits for the gateway's answer about one payout before showing UNKNOWN. */
export const PROVIDER_STATUS_TIMEOUT_MS = 3000;
/** The list answers at most this many payouts, oldest first. */
export const PAYOUT_LIST_LIMIT = 200;

/** The gateway's status of one payout, UNKNOWN when it throws or does not answer within timeoutMs. */
export async function providerStatus(payouts: PayoutAdapter, withdrawalId: string, timeoutMs = PROVIDER_STATUS_TIMEOUT_MS, call?: ProviderCall): Promise<PayoutStatus> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<PayoutStatus>((resolve) => {
    timer = setTimeout(() => resolve('UNKNOWN'), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([
      Promise.resolve()
        .then(() => payouts.getPayoutStatus(withdrawalId, call))
        .catch((): PayoutStatus => 'UNKNOWN'),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const errorBody = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } as const;
const payoutItem = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    player: { type: 'object', properties: { id: { type: 'integer' }, phone: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'phone', 'name'] },
    amount: { type: 'number' },
    currency: { type: 'string' },
    bankCode: { type: 'string' },
    bankAccountNo: { type: 'string' },
    bankAccountName: { type: 'string' },
    requestedAt: { type: 'string' },
    ageMinutes: { type: 'integer' },
    providerStatus: { type: 'string', enum: ['PENDING', 'SUCCEEDED', 'FAILED', 'UNKNOWN'] },
  },
  required: ['id', 'player', 'amount', 'currency', 'bankCode', 'bankAccountNo', 'bankAccountName', 'requestedAt', 'ageMinutes', 'providerStatus'],
} as const;
const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;

/** Back office: payouts (docs/staff.md "Back office"). Routes under /api/staff/payouts. */
export async function payoutsRoutes(app: FastifyInstance): Promise<void> {
  const guard = { onRequest: [app.authenticateStaff, app.staffRole('payments', 'admin')] };

  app.get<{ Querystring: { overdue?: '0' | '1' } }>(
    '/api/staff/payouts',
    {
      ...guard,
      schema: {
        querystring: { type: 'object', properties: { overdue: { type: 'string', enum: ['0', '1'] } }, additionalProperties: false },
        response: { 200: { type: 'object', properties: { payouts: { type: 'array', items: payoutItem } }, required: ['payouts'] }, '4xx': errorBody, '5xx': errorBody },
      },
    },
    async (req) => {
      const now = app.clock.now();
      let q = app.db
        .selectFrom('withdrawals as w')
        .innerJoin('players as p', 'p.id', 'w.player_id')
        .select(['w.id', 'w.player_id', 'w.amount', 'w.currency', 'w.bank_code', 'w.bank_account_no', 'w.bank_account_name', 'w.created_at', 'p.phone', 'p.name'])
        .where('w.status', '=', 'IN_PROGRESS');
      if ((req.query.overdue ?? '1') === '1') {
        q = q.where('w.created_at', '<=', new Date(now.getTime() - app.config.payoutExpectedMinutes * 60_000).toISOString());
      }
      const rows = await q.orderBy('w.created_at', 'asc').orderBy('w.id', 'asc').limit(PAYOUT_LIST_LIMIT).execute();
      const statuses = await Promise.all(rows.map((r) => providerStatus(app.wallet.payouts, r.id, undefined, callOf(req))));
      return {
        payouts: rows.map((r, i) => ({
          id: r.id,
          player: { id: Number(r.player_id), phone: r.phone, name: r.name },
          amount: toBaht(Number(r.amount)),
          currency: r.currency,
          bankCode: r.bank_code,
          bankAccountNo: r.bank_account_no,
          bankAccountName: r.bank_account_name,
          requestedAt: r.created_at,
          ageMinutes: Math.max(0, Math.floor((now.getTime() - Date.parse(r.created_at)) / 60_000)),
          providerStatus: statuses[i],
        })),
      };
    },
  );

  for (const [action, succeeded] of [
    ['settle', true],
    ['fail', false],
  ] as const) {
    app.post<{ Params: { id: string }; Body: unknown }>(
      `/api/staff/payouts/:id/${action}`,
      {
        ...guard,
        schema: {
          params: idParams,
          response: {
            200: { type: 'object', properties: { id: { type: 'string' }, status: { type: 'string', enum: ['SUCCESS', 'FAILED'] } }, required: ['id', 'status'] },
            '4xx': errorBody,
            '5xx': errorBody,
          },
        },
      },
      async (req) => {
        const reason = actionReason(req.body);
        const id = req.params.id;
        const res = await app.wallet.settlePayout(id, succeeded, reason, async (trx, status) => {
          // In settlePayout's own transaction: the payout's result and who decided it land together.
          await recordStaffAction(trx, { staffId: req.staffId, action: `payout.${action}`, subjectType: 'payout', subjectId: id, reason, detail: { status }, requestId: req.id }, app.clock.now());
        });
        if (res.status === null) throw notFound('NO_DATA');
        if (!res.applied) throw conflict('PAYOUT_SETTLED');
        return { id, status: res.status as 'SUCCESS' | 'FAILED' };
      },
    );
  }
}
