import type { FastifyInstance } from 'fastify';
import type { PayoutAdapter, PayoutCancel, PayoutStatus } from '../../adapters/payouts';
import { conflict, notFound } from '../../errors';
import { toBaht } from '../../ledger/money';
import { recordStaffAction } from '../staff';
import { callOf, type ProviderCall } from '../../lib/request-context';
import { actionReason } from './reviews';

/**
 * Back office: payouts in progress (docs/staff.md "Back office: payments under review and payouts"). Routes under
 * /api/staff/payouts, roles payments and admin. The list shows what the gateway says of each payout; settle and
 * fail go through the wallet's settlePayout (fail returns the money), with the audit row in its transaction. Fail
 * needs the gateway's word that the payout will not be paid (providerFailure).
 */

/** How long the list waits for the gateway's answer about one payout before showing UNKNOWN. */
export const PROVIDER_STATUS_TIMEOUT_MS = 3000;
/** The list answers at most this many payouts, oldest first. */
export const PAYOUT_LIST_LIMIT = 200;

/** What `ask` answers, or `fallback` when it throws or does not answer within timeoutMs. */
async function askGateway<T>(ask: () => Promise<T>, fallback: T, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(fallback), timeoutMs);
    timer.unref();
  });
  try {
    return await Promise.race([Promise.resolve().then(ask).catch(() => fallback), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The gateway's status of one payout, UNKNOWN when it throws or does not answer within timeoutMs. */
export function providerStatus(payouts: PayoutAdapter, withdrawalId: string, timeoutMs = PROVIDER_STATUS_TIMEOUT_MS, call?: ProviderCall): Promise<PayoutStatus> {
  return askGateway(() => payouts.getPayoutStatus(withdrawalId, call), 'UNKNOWN', timeoutMs);
}

/**
 * Why staff may fail a payout, in the gateway's words: it reports the payout FAILED, or it was PENDING and a cancel
 * stopped it (CANCELLED). Null otherwise (paid, already on its way to the bank, unknown, or no answer): the money may
 * still reach the player, so returning it to the wallet could pay them twice (issue 39 row 4).
 */
export async function providerFailure(payouts: PayoutAdapter, withdrawalId: string, call?: ProviderCall, timeoutMs = PROVIDER_STATUS_TIMEOUT_MS): Promise<'FAILED' | 'CANCELLED' | null> {
  const status = await providerStatus(payouts, withdrawalId, timeoutMs, call);
  if (status === 'FAILED') return 'FAILED';
  if (status !== 'PENDING') return null;
  const cancel = await askGateway<PayoutCancel | 'NO_ANSWER'>(() => payouts.cancelPayout(withdrawalId, call), 'NO_ANSWER', timeoutMs);
  return cancel === 'CANCELLED' ? 'CANCELLED' : null;
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
        let provider: 'FAILED' | 'CANCELLED' | null = null;
        if (!succeeded) {
          // The outcome is the gateway's: fail only what it says failed or what it just cancelled (409 otherwise).
          const w = await app.db.selectFrom('withdrawals').select('status').where('id', '=', id).executeTakeFirst();
          if (!w) throw notFound('NO_DATA');
          if (w.status !== 'IN_PROGRESS') throw conflict('PAYOUT_SETTLED');
          provider = await providerFailure(app.wallet.payouts, id, callOf(req));
          if (!provider) throw conflict('PAYOUT_NOT_FAILED');
        }
        const res = await app.wallet.settlePayout(id, succeeded, reason, async (trx, status) => {
          // In settlePayout's own transaction: the payout's result and who decided it land together.
          const detail = provider ? { status, provider } : { status };
          await recordStaffAction(trx, { staffId: req.staffId, action: `payout.${action}`, subjectType: 'payout', subjectId: id, reason, detail, requestId: req.id }, app.clock.now());
        });
        if (res.status === null) throw notFound('NO_DATA');
        if (!res.applied) throw conflict('PAYOUT_SETTLED');
        return { id, status: res.status as 'SUCCESS' | 'FAILED' };
      },
    );
  }
}
