import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import multipart from '@fastify/multipart';
import { AppError, badRequest, notFound, unauthorized } from '../../errors';
import { idempotent } from '../../ledger';
import { verifyWebhookSignature, SIGNATURE_HEADER } from './domain/webhook-signature';
import { readDepositRules, findPlayerSlip } from './repository';
import { QrRefused, cancelQr, createQr, getQr, isQrBank } from './qr-service';
import { applyEvent, parseEvent } from './webhook-service';
import { applyGatewayWebhook } from './opn-webhook';
import { assertSlipUploadOpen, listPlayerSlips, slipUrlByReference, uploadSlip } from './slip-service';
import { redeemGiftLink } from './gift-service';
import { checkSlipImageUrl } from './domain/slip-links';
import { scoped } from '../../lib/request-context';
import * as s from './schemas';

const errors = { '4xx': s.errorResponse, '5xx': s.errorResponse };

/** The deposit API of spec §7: QR codes, the payment webhook, slips and gift links. */
export default async function routes(app: FastifyInstance): Promise<void> {
  // A handler hands the services `scoped(ctx, req)`: the request's logger and provider-call context (its id).
  const ctx = app.deposits;
  const auth = { onRequest: app.authenticate };
  // Play routes (issue 15): refused during a time-out, a self-exclusion or past the session limit.
  const play = { config: { play: true } };

  // ---- QR codes: GET, POST {amount}, DELETE /api/qrcode/{bankCode | qrcodeId}
  const qrErrors = { '4xx': s.qrRefusal, 502: s.qrRefusal, '5xx': s.errorResponse };
  app.get<{ Params: { code: string } }>('/api/qrcode/:code', { ...auth, schema: { params: s.qrParams, response: { 200: s.qrRecord, ...errors } } }, async (req) => {
    if (!isQrBank(req.params.code)) throw notFound('NO_BANK');
    return getQr(scoped(ctx, req), req.playerId, req.params.code);
  });
  app.post<{ Params: { code: string }; Body: { amount?: unknown } }>(
    '/api/qrcode/:code',
    { ...auth, ...play, schema: { params: s.qrParams, body: s.createQrBody, response: { 200: s.qrRecord, ...qrErrors } } },
    async (req, reply) => {
      if (!isQrBank(req.params.code)) throw notFound('NO_BANK');
      try {
        return await createQr(scoped(ctx, req), req.playerId, req.params.code, req.body?.amount);
      } catch (e) {
        if (e instanceof QrRefused) return reply.status(e.statusCode).send(e.record);
        throw e;
      }
    },
  );
  app.delete<{ Params: { code: string } }>('/api/qrcode/:code', { ...auth, schema: { params: s.qrParams, response: { 200: s.qrRecord, ...errors } } }, async (req) =>
    cancelQr(scoped(ctx, req), req.playerId, req.params.code),
  );

  // ---- The payment webhook: the raw bytes are what the signature covers, so this context keeps them.
  await app.register(async (hook) => {
    hook.removeAllContentTypeParsers();
    hook.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    hook.post('/api/webhooks/payments', { schema: { response: { 200: s.webhookAnswer, ...errors } } }, async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      if (!verifyWebhookSignature(raw, req.headers[SIGNATURE_HEADER], app.config.paymentWebhookSecret)) throw unauthorized('UNAUTHORIZED');
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw.toString('utf8'));
      } catch {
        throw badRequest('KEY_INVALID');
      }
      return applyEvent(scoped(ctx, req), raw, parseEvent(parsed));
    });
    // Opn Payments' own events (PAYMENT_GATEWAY=opn, docs/providers/opn.md): its signature, then the charge fetched by id.
    hook.post('/api/webhooks/opn', { schema: { response: { 200: s.webhookAnswer, ...errors } } }, async (req) => {
      const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      return applyGatewayWebhook(scoped(ctx, req), raw, req.headers, 'opn');
    });
  });

  // ---- Slips
  await app.register(async (uploads) => {
    if (!uploads.hasContentTypeParser('multipart/form-data')) await uploads.register(multipart, { limits: { files: 1, fields: 10, parts: 12 } });
    uploads.post('/api/wallet/slip', { ...auth, ...play, schema: { response: { 200: s.slipUploadAnswer, ...errors } } }, async (req, reply) => {
      await assertSlipUploadOpen(ctx);
      const rules = await readDepositRules(app.db);
      if (!req.isMultipart()) throw badRequest('SLIP_NO_FILE');
      let bytes: Buffer | null = null;
      let truncated = false;
      try {
        for await (const part of req.parts({ limits: { fileSize: rules.slipMaxBytes, files: 1 } })) {
          if (part.type !== 'file') continue;
          if (part.fieldname !== 'file' || bytes) {
            part.file.resume();
            continue;
          }
          bytes = await part.toBuffer();
          truncated = part.file.truncated;
        }
      } catch (e) {
        const code = (e as { code?: string }).code;
        if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, 'SLIP_INVALID_FILE');
        if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') throw badRequest('SLIP_INVALID_FILE');
        // Anything else here is the client's multipart (no boundary, a truncated part...), never the server's fault.
        if (e instanceof AppError) throw e;
        throw badRequest('SLIP_INVALID_FILE');
      }
      if (!bytes) throw badRequest('SLIP_NO_FILE');
      const file = bytes;
      // The key covers the file itself (a multipart body has no parsed body to hash): another file under the
      // same key is refused (KEY_INVALID), the same file again replays the first answer.
      const body = { sha256: crypto.createHash('sha256').update(file).digest('hex'), truncated };
      return idempotent(app.db, req, reply, async () => ({ body: { message: 'SUCCESS' as const, slip: await uploadSlip(scoped(ctx, req), { playerId: req.playerId, bytes: file, truncated }) } }), body);
    });
  });

  app.post<{ Body: { page?: number; limit?: number } }>(
    '/api/statement/slip',
    { ...auth, schema: { body: s.pageBody, response: { 200: s.slipList, ...errors } } },
    async (req) => listPlayerSlips(ctx, req.playerId, req.body?.page ?? 1, req.body?.limit ?? 10),
  );
  app.get<{ Params: { reference: string } }>(
    '/api/statement/slip/reference/:reference',
    { ...auth, schema: { params: s.referenceParams, response: { 200: s.urlAnswer, ...errors } } },
    async (req) => slipUrlByReference(ctx, req.playerId, req.params.reference),
  );
  // The image behind a signed link (no Bearer header in a new window): only that player's slip, until expiry.
  app.get<{ Params: { id: string }; Querystring: { p?: string; exp?: string; sig?: string } }>(
    '/api/statement/slip/image/:id',
    { schema: { params: s.slipImageParams, querystring: s.slipImageQuery } },
    async (req, reply) => {
      const playerId = checkSlipImageUrl(ctx.secret, req.params.id, req.query, ctx.now());
      if (playerId === null) throw unauthorized('invalid-token');
      const row = await findPlayerSlip(app.db, playerId, req.params.id);
      if (!row) throw notFound('NO_DATA');
      const bytes = await fs.readFile(path.join(ctx.env.uploadsDir, path.basename(row.file_name))).catch(() => null);
      if (!bytes) throw notFound('UPLOADED_FILE_NOT_EXIST');
      return reply
        .header('content-type', row.content_type)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(bytes);
    },
  );

  // ---- Gift links
  app.post<{ Body: { link?: string } }>(
    '/api/wallet/truelink',
    { ...auth, ...play, schema: { body: s.truelinkBody, response: { 200: s.truelinkAnswer, ...errors } } },
    async (req, reply) => idempotent(app.db, req, reply, async () => ({ body: await redeemGiftLink(scoped(ctx, req), req.playerId, req.body?.link ?? '') })),
  );

}
