import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { makeSlipPng } from '../../plugins/deposits/domain/slip-image';
import { nowIso } from '../../db';
import { AppError } from '../../errors';
import { listDemoTransfers, listLiveQrs, listOpenWithdrawals, listPlayerBankAccounts } from '../../plugins/deposits/repository';
import { BANK_CSS, BANK_JS, renderBankPage, type BankPageData } from './page';
import { bankFontPath, bankLang } from './texts';
import { issueVoucher, makeTransfer, payQr, postSignedEvent, slipFor, type ReceiverChoice } from './bank-service';
import { PayoutSimulator } from '../../adapters/payouts';

export { reportSimulatedPayoutsByWebhook } from './bank-service';

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (a dual-stack socket's view of 127.0.0.1). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/**
 * Demo mode only: the simulated bank at /demo/bank (server-rendered, not an SPA route). It lists pending
 * QRs and payouts and settles them through the signed webhook; it makes transfers to the operator that
 * yield a slip PNG with a real mini-QR; it issues gift vouchers.
 */
export default async function demoBank(app: FastifyInstance): Promise<void> {
  // It pays any QR and lists players' bank accounts without a login: it answers only a browser on this machine
  // (issue 39 row 5). The socket's address decides, since a header can say anything; behind a proxy on this machine
  // (whose socket is loopback) the client address it forwards must be loopback too. Elsewhere it is not there.
  app.addHook('onRequest', async (req) => {
    if (!isLoopback(req.socket.remoteAddress) || !isLoopback(req.ip)) throw new AppError(404, 'NO_DATA');
  });

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 8 * 1024 }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  // Forms post only from this page: a cross-site form cannot make the demo bank pay.
  const sameOrigin = async (req: FastifyRequest) => {
    const site = req.headers['sec-fetch-site'];
    const origin = req.headers.origin;
    if (site === 'cross-site' || (origin && origin !== 'null' && new URL(origin).host !== req.headers.host)) throw new AppError(403, 'INVALID_IP');
  };
  const back = (params: Record<string, string>) => `/demo/bank?${new URLSearchParams(params).toString()}`;
  type Form = Record<string, string | undefined>;
  // The forms post text fields only; anything else (a JSON body with other types) is refused before use.
  const form = { preHandler: sameOrigin, schema: { body: { type: 'object', additionalProperties: { type: 'string', maxLength: 200 } } } };

  app.get<{ Querystring: Record<string, string | undefined> }>('/demo/bank', async (req, reply) => {
    const now = app.clock.now();
    const q = req.query;
    let gift: BankPageData['gift'] = null;
    if (q.giftLink && q.giftEnc) gift = { link: q.giftLink, encrypted: q.giftEnc };
    const [qrs, withdrawals, players, transfers] = await Promise.all([
      listLiveQrs(app.db, nowIso(now)),
      listOpenWithdrawals(app.db).catch(() => []),
      listPlayerBankAccounts(app.db),
      listDemoTransfers(app.db),
    ]);
    const html = renderBankPage({
      flash: q.ok ? { kind: 'ok', text: q.ok } : q.error ? { kind: 'error', text: q.error } : null,
      slipRef: q.slip && /^[A-Za-z0-9]{6,40}$/.test(q.slip) ? q.slip : null,
      gift,
      qrs: qrs.map((r) => ({ ...r, amount: Number(r.amount) })),
      withdrawals: withdrawals.map((w) => ({ ...w, amount: Number(w.amount) })),
      players: players.map((p) => ({ ...p, id: Number(p.id) })),
      transfers: transfers.map((t) => ({ ...t, amount: Number(t.amount) })),
      promptPayId: app.deposits.env.promptPayId,
      operatorName: app.deposits.env.operatorName,
      now,
      lang: bankLang(q.lang, req.headers.cookie),
    });
    return reply.header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
  });
  app.get('/demo/bank/bank.js', async (_req, reply) => reply.type('text/javascript; charset=utf-8').send(BANK_JS));
  // The Thai and Lao faces of the page (texts.ts BANK_FONTS): a fixed list of names, never a path from the request.
  app.get<{ Params: { file: string } }>('/demo/bank/fonts/:file', async (req, reply) => {
    const file = bankFontPath(req.params.file);
    if (!file) throw new AppError(404, 'NO_DATA');
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type('font/woff2').send(await readFile(file));
  });
  app.get('/demo/bank/bank.css', async (_req, reply) => reply.type('text/css; charset=utf-8').send(BANK_CSS));

  app.post<{ Params: { id: string }; Body: Form }>('/demo/bank/qr/:id/pay', form, async (req, reply) => {
    const r = await payQr(app, req.params.id, req.body?.amount?.trim() || undefined);
    const ok = r.statusCode === 200 && r.outcome === 'CREDITED';
    return reply.redirect(back(ok ? { ok: 'Paid: the wallet was credited.' } : { error: `Webhook answered ${r.statusCode} ${r.outcome}` }), 303);
  });

  app.post<{ Params: { id: string }; Body: Form }>('/demo/bank/payouts/:id/settle', form, async (req, reply) => {
    const succeeded = req.body?.result !== 'failed';
    const w = await app.db.selectFrom('withdrawals').select(['id', 'amount']).where('id', '=', req.params.id).executeTakeFirst();
    if (!w) return reply.redirect(back({ error: 'No such withdrawal.' }), 303);
    // Through the simulated gateway when it holds the payout, so that its own word (its status, its timer) agrees with
    // the result: a result posted past it would later be contradicted by its timer (a payment review, issue 39 row 4).
    const sim = app.wallet?.payouts instanceof PayoutSimulator ? app.wallet.payouts : null;
    if (sim && (await sim.settle(w.id, succeeded).catch(() => false))) {
      const now = await app.db.selectFrom('withdrawals').select('status').where('id', '=', w.id).executeTakeFirstOrThrow();
      return reply.redirect(back({ ok: `Payout ${succeeded ? 'paid' : 'failed'}: PAYOUT_${now.status}` }), 303);
    }
    const r = await postSignedEvent(app, { type: succeeded ? 'payout.succeeded' : 'payout.failed', reference: w.id, amount: Number(w.amount) / 100 });
    return reply.redirect(back(r.statusCode === 200 ? { ok: `Payout ${succeeded ? 'paid' : 'failed'}: ${r.outcome}` } : { error: `Webhook answered ${r.statusCode} ${r.outcome}` }), 303);
  });

  app.post<{ Body: Form }>('/demo/bank/transfer', form, async (req, reply) => {
    const b = req.body ?? {};
    const receiver: ReceiverChoice = b.receiver === 'other' || b.receiver === 'promptpay' ? b.receiver : 'account';
    const r = await makeTransfer(app, { playerId: Number(b.playerId), amount: b.amount ?? '', receiver, minutesAgo: Number(b.minutesAgo) || 0 });
    return reply.redirect(back(r.ok ? { slip: r.transRef } : { error: r.error }), 303);
  });

  app.get<{ Params: { file: string } }>('/demo/bank/slips/:file', async (req, reply) => {
    const m = /^([A-Za-z0-9]{6,40})\.png$/.exec(req.params.file);
    const slip = m ? await slipFor(app, m[1]) : null;
    if (!slip) throw new AppError(404, 'NO_DATA');
    return reply
      .type('image/png')
      .header('content-disposition', `attachment; filename="slip-${slip.transRef}.png"`)
      .header('cache-control', 'no-store')
      .send(makeSlipPng(slip));
  });

  app.post<{ Body: Form }>('/demo/bank/gift', form, async (req, reply) => {
    const r = issueVoucher(app, req.body?.amount ?? '');
    return reply.redirect(back(r.ok ? { giftLink: r.link, giftEnc: r.encrypted } : { error: r.error }), 303);
  });
}
