import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callOf, scoped } from '../../lib/request-context';
import { toBaht } from '../../ledger';
import { idempotentIn, refusalAnswer, type Answer, type KeyWrites } from '../../ledger/idempotency';
import { AppError, notFound, unprocessable } from '../../errors';
import { walletAnswerBytes } from './answer-json';
import * as S from './schemas';
import { activateGame, autoLoginLink, gameCredentials, refreshAllGames, resetGamePassword, walletView, type WalletView } from './service';
import { amountFromWire, transferAll, transferBetween, TRANSFER_MINIMUM_SATANG } from './transfer-service';
import { requestWithdrawal } from './withdrawals';
import type { TransferResult, TransferTransactions } from '../../transfers/protocol';

function transferAnswer(r: TransferResult, amount: number) {
  const settled = r.status === 'settled';
  return {
    status: settled ? 200 : 202,
    body: {
      status: settled ? ('SUCCESS' as const) : ('IN_PROGRESS' as const),
      message: settled ? ('TRANSFER_SUCCESS' as const) : ('TRANSFER_IN_PROGRESS' as const),
      transferId: r.transferId,
      amount: toBaht(amount),
    },
  };
}

/**
 * The transfer's Idempotency-Key in its own transactions (idempotentIn): claimed with the money, and the answer the
 * route will give stored with the outcome (a definite failure is the TRANSFER_FAIL refusal that finish() throws).
 */
function keyedTransfer(key: KeyWrites, amount: number): TransferTransactions {
  const answerOf = (transferId: string, status: 'settled' | 'failed'): Answer =>
    status === 'failed' ? refusalAnswer(unprocessable('TRANSFER_FAIL')) : transferAnswer({ transferId, status }, amount);
  return {
    open: { parts: () => key.claimParts(), committed: () => key.claimed() },
    close: { parts: (id, status) => key.answerParts(answerOf(id, status)), committed: (id, status) => key.answered(answerOf(id, status)) },
  };
}

export default async function routes(app: FastifyInstance) {
  const auth = { onRequest: app.authenticate };
  // Play routes (issue 15): refused during a time-out, a self-exclusion or past the session limit. The transfer
  // route is not one: game -> wallet stays open, so its guard runs in the transfer service by direction.
  const play = { config: { play: true } };
  const w = () => app.wallet;
  // What a route hands its services: the request's logger (lines with its id) and provider-call context
  // (server/lib/request-context.ts).
  const secretsOf = (req: FastifyRequest) => w().secrets.withLog(req.log);

  // The wallet answer is sent as bytes made by answer-json.ts; the 200 schema describes it (and its test checks it).
  const walletAnswer = { ...auth, schema: { response: { 200: S.walletResponse, ...S.errors } } };
  const sendWallet = (reply: FastifyReply, view: WalletView) => reply.type('application/json; charset=utf-8').send(walletAnswerBytes(view));
  // The session is read in the wallet's own statement (walletView), not before it in app.authenticate.
  app.get('/api/wallet', { ...walletAnswer, config: { sessionInQuery: true } }, async (req, reply) =>
    sendWallet(reply, await walletView(app.db, secretsOf(req), req.playerId, req.sessionId)),
  );

  app.get('/api/wallet/refresh/slot', walletAnswer, async (req, reply) => {
    await refreshAllGames(scoped(w().transferDeps, req), req.playerId);
    return sendWallet(reply, await walletView(app.db, secretsOf(req), req.playerId, req.sessionId));
  });

  app.get<{ Params: { slotCode: string } }>(
    '/api/wallet/activate/:slotCode',
    { ...auth, ...play, schema: { params: S.slotCodeParams, response: { 200: S.slot, ...S.errors } } },
    (req) => activateGame(app.db, w().provider, secretsOf(req), req.playerId, req.params.slotCode, callOf(req)),
  );

  app.get<{ Params: { slotCode: string } }>(
    '/api/wallet/account/:slotCode',
    { ...auth, ...play, schema: { params: S.slotCodeParams, response: { 200: S.credentials, ...S.errors } } },
    (req) => gameCredentials(app.db, secretsOf(req), req.playerId, req.params.slotCode),
  );

  app.get<{ Params: { slotCode: string } }>(
    '/api/wallet/resetpassword/:slotCode',
    { ...auth, ...play, schema: { params: S.slotCodeParams, response: { 200: S.credentials, ...S.errors } } },
    (req) => resetGamePassword(app.db, w().provider, secretsOf(req), req.playerId, req.params.slotCode, callOf(req)),
  );

  app.post<{ Body: { from: string; to: string; amount: unknown } }>(
    '/api/wallet/transfer',
    { ...auth, schema: { body: S.transferBody, response: { 200: S.transferResponse, 202: S.transferResponse, ...S.errors } } },
    (req, reply) =>
      idempotentIn(app.db, req, reply, async (key) => {
        const amount = amountFromWire(req.body.amount, TRANSFER_MINIMUM_SATANG);
        const playing = { sessionId: req.sessionId, now: app.clock.now(), minuteMs: app.config.playMinuteMs };
        const r = await transferBetween(scoped(w().transferDeps, req), req.playerId, req.body.from, req.body.to, amount, playing, key && keyedTransfer(key, amount));
        return transferAnswer(r, amount);
      }),
  );

  app.post<{ Body: { to: string } }>(
    '/api/wallet/transferAll',
    { ...auth, ...play, schema: { body: S.transferAllBody, response: { 200: S.transferResponse, 202: S.transferResponse, ...S.errors } } },
    (req, reply) =>
      idempotentIn(app.db, req, reply, async (key) => {
        const playing = { sessionId: req.sessionId, now: app.clock.now(), minuteMs: app.config.playMinuteMs };
        const r = await transferAll(scoped(w().transferDeps, req), req.playerId, req.body.to, playing, key && ((amount) => keyedTransfer(key, amount)));
        return transferAnswer(r, r.amount);
      }),
  );

  app.post<{ Body: { amount: unknown } }>(
    '/api/wallet/withdrawAll',
    { ...auth, schema: { body: S.withdrawBody, response: { 200: S.withdrawResponse, ...S.errors } } },
    (req, reply) =>
      idempotentIn(app.db, req, reply, async (key) => {
        const amount = amountFromWire(req.body.amount, 1);
        const r = await requestWithdrawal(scoped(w().withdrawDeps, req), req.playerId, amount, key);
        if (r.status === 'FAILED') throw new AppError(422, 'TRANSFER_FAIL');
        const done = r.status === 'SUCCESS';
        return {
          body: {
            status: done ? ('SUCCESS' as const) : ('IN_PROGRESS' as const),
            message: done ? ('WITHDRAW_SUCCESS' as const) : ('WITHDRAW_IN_PROGRESS' as const),
            withdrawalId: r.withdrawalId,
            amount: toBaht(amount),
          },
        };
      }),
  );

  // Defined by the spec's API but unused by the app: they would create or move money outside the rules, so
  // they are refused (404 NO_DATA); deposits and withdrawAll are the ways in and out.
  for (const path of ['/api/wallet/add', '/api/wallet/withdraw']) {
    app.post(path, { ...auth, schema: { response: { ...S.errors } } }, async () => {
      throw notFound('NO_DATA');
    });
  }

  const autoLogin = { ...auth, ...play, schema: { params: S.autoLoginParams, response: { 200: S.linkResponse, ...S.errors } } };
  app.get<{ Params: { game: string; username: string } }>('/api/autoLogin/:game/:username', autoLogin, async (req) => ({
    link: await autoLoginLink(app.db, w().provider, secretsOf(req), req.playerId, req.params.game, req.params.username, undefined, callOf(req)),
  }));
  app.get<{ Params: { game: string; username: string; password: string } }>('/api/autoLogin/:game/:username/:password', autoLogin, async (req) => ({
    link: await autoLoginLink(app.db, w().provider, secretsOf(req), req.playerId, req.params.game, req.params.username, req.params.password, callOf(req)),
  }));
}
