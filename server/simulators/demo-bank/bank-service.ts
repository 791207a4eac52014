import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../db';
import { parseBaht, toBaht } from '../../ledger/money';
import { PayoutSimulator } from '../../adapters/payouts';
import { bankNumberOf } from '../../plugins/deposits/domain/slip-qr';
import { signWebhook } from '../../plugins/deposits/domain/webhook-signature';
import { encryptGiftLink, giftLinkFor } from '../../plugins/deposits/domain/giftlink';
import { findDemoTransfer, findQr, insertDemoTransfer, listReceivingAccounts } from '../../plugins/deposits/repository';

/**
 * What the simulated bank does. Payments and payouts are reported through the real webhook, signed with
 * the configured secret and posted to this same server, exactly as the gateway would.
 */
export async function postSignedEvent(app: FastifyInstance, event: { type: string; reference: string; amount: number }) {
  const raw = JSON.stringify({ id: `evt_demo_${crypto.randomBytes(10).toString('hex')}`, ...event });
  const res = await app.inject({
    method: 'POST',
    url: '/api/webhooks/payments',
    headers: { 'content-type': 'application/json', 'x-signature': signWebhook(raw, app.config.paymentWebhookSecret) },
    payload: raw,
  });
  const body = res.json() as { outcome?: string; message?: string };
  return { statusCode: res.statusCode, outcome: body.outcome ?? body.message ?? 'UNKNOWN' };
}

/** Pays a QR: the QR's own amount unless another is given (to see a mismatch handled). */
export async function payQr(app: FastifyInstance, qrId: string, amountText?: string) {
  const qr = await findQr(app.db, qrId);
  if (!qr) return { statusCode: 404, outcome: 'UNKNOWN_REFERENCE' };
  const override = amountText ? parseBaht(amountText) : null;
  const satang = override && override > 0 ? override : Number(qr.amount);
  return postSignedEvent(app, { type: 'qr.paid', reference: qr.id, amount: satang / 100 });
}

export type ReceiverChoice = 'account' | 'promptpay' | 'other';

export interface TransferForm {
  playerId: number;
  amount: string;
  receiver: ReceiverChoice;
  minutesAgo: number;
}

/** A transfer from a player's registered account to the operator; returns its reference (the slip's QR). */
export async function makeTransfer(app: FastifyInstance, f: TransferForm): Promise<{ ok: true; transRef: string } | { ok: false; error: string }> {
  const amount = parseBaht(f.amount);
  if (amount === null || amount <= 0) return { ok: false, error: 'Enter an amount in baht with at most 2 decimals.' };
  // A missing or non-numeric id (NaN) is no player; PostgreSQL would refuse it as a query parameter.
  const player = Number.isSafeInteger(f.playerId) ? await app.db.selectFrom('players').selectAll().where('id', '=', f.playerId).executeTakeFirst() : undefined;
  if (!player) return { ok: false, error: 'No such player.' };
  const sendingBank = bankNumberOf(player.bank_code);
  if (!sendingBank) return { ok: false, error: `${player.bank_code} does not issue Thai slips with a mini-QR.` };
  const accounts = (await listReceivingAccounts(app.db)).filter((a) => a.bank_code && bankNumberOf(a.bank_code));
  const env = app.deposits.env;
  let receiver: { bank: string | null; account: string | null; promptPay: string | null; name: string };
  if (f.receiver === 'other') receiver = { bank: 'SCB', account: '9990001112', promptPay: null, name: 'SOMEONE ELSE' };
  else if (f.receiver === 'promptpay' || accounts.length === 0) receiver = { bank: null, account: null, promptPay: env.promptPayId, name: env.operatorName };
  else receiver = { bank: accounts[0].bank_code, account: accounts[0].account_no, promptPay: null, name: accounts[0].account_name };

  const now = app.clock.now();
  // Bank-style reference: date, time and a random tail, as the mini-QR of a real slip carries.
  const stamp = nowIso(now).replace(/\D/g, '').slice(0, 14);
  const transRef = `${stamp}${sendingBank}${crypto.randomBytes(4).toString('hex').toUpperCase()}`;
  await insertDemoTransfer(app.db, {
    trans_ref: transRef,
    sending_bank: sendingBank,
    sender_bank_code: player.bank_code,
    sender_account_no: player.bank_account_no,
    sender_account_name: player.bank_account_name,
    receiver_bank_code: receiver.bank,
    receiver_account_no: receiver.account,
    receiver_promptpay_id: receiver.promptPay,
    receiver_name: receiver.name,
    amount,
    transferred_at: nowIso(new Date(now.getTime() - Math.max(0, f.minutesAgo) * 60_000)),
    created_at: nowIso(now),
  });
  return { ok: true, transRef };
}

export async function slipFor(app: FastifyInstance, transRef: string) {
  const t = await findDemoTransfer(app.db, transRef);
  if (!t) return null;
  return { sendingBank: t.sending_bank, transRef: t.trans_ref, amountSatang: Number(t.amount), at: new Date(t.transferred_at) };
}

/** Issues a gift voucher at the redeemer simulator: the plain link (what a player pastes) and what the SPA sends. */
export function issueVoucher(app: FastifyInstance, amountText: string): { ok: true; link: string; encrypted: string } | { ok: false; error: string } {
  const sim = app.deposits.sims.gift;
  if (!sim) return { ok: false, error: 'A real gift redeemer is configured; the demo cannot issue vouchers.' };
  const amount = parseBaht(amountText);
  if (amount === null || amount <= 0) return { ok: false, error: 'Enter an amount in baht with at most 2 decimals.' };
  const link = giftLinkFor(sim.issue(amount));
  return { ok: true, link, encrypted: encryptGiftLink(link) };
}

/**
 * The payout simulator reports each result through the signed payment webhook, the path a real gateway's
 * payout.succeeded / payout.failed takes, instead of calling the wallet directly (issues 4 and 5).
 */
export function reportSimulatedPayoutsByWebhook(app: FastifyInstance): void {
  const payouts = (app as { wallet?: { payouts: unknown } }).wallet?.payouts;
  if (!(payouts instanceof PayoutSimulator)) return;
  payouts.setSettledHandler(async (withdrawalId, succeeded) => {
    const w = await app.db.selectFrom('withdrawals').select('amount').where('id', '=', withdrawalId).executeTakeFirst();
    if (!w) throw new Error(`payout for an unknown withdrawal ${withdrawalId}`);
    const res = await postSignedEvent(app, {
      type: succeeded ? 'payout.succeeded' : 'payout.failed',
      reference: withdrawalId,
      amount: toBaht(Number(w.amount)),
    });
    if (res.statusCode >= 300) throw new Error(`the payment webhook answered ${res.statusCode} (${res.outcome})`);
    return res;
  });
}
