import crypto from 'node:crypto';
import type { ProviderCall } from '../../lib/request-context';
import { ProviderTimeoutError, adapterClient, type AdapterHttpSettings, type HttpClient, type LogSink } from '../http';
import { GatewayError, type GatewayQr, type GatewayQrRequest, type GatewayWebhook, type PaymentGateway } from './types';

/**
 * Opn Payments (formerly Omise) PromptPay charges (docs/providers/opn.md): `POST {base}/charges` with Basic auth (the
 * secret key, empty password), `{amount (satang), currency: 'thb', source: {type: 'promptpay'}, metadata: {reference}}`
 * -> a pending charge whose `source.scannable_code.image.download_uri` is the QR (no raw payload); `GET /charges/:id`;
 * `POST /charges/:id/expire`; the `charge.complete` webhook signed with `Omise-Signature` (HMAC-SHA256, hex, over
 * `<Omise-Signature-Timestamp>.<raw body>`, keyed with the base64-decoded webhook secret).
 */
export const OPN_BASE_URL = 'https://api.omise.co';
export const OPN_SIGNATURE_HEADER = 'omise-signature';
export const OPN_TIMESTAMP_HEADER = 'omise-signature-timestamp';
/** A delivery signed longer ago (or ahead) than this is refused: a replayed old delivery. */
export const OPN_SIGNATURE_TOLERANCE_S = 300;

export interface OpnOptions extends AdapterHttpSettings {
  secretKey: string;
  /** Base64, as the dashboard shows it. */
  webhookSecret: string;
  now?: () => Date;
}

/** The parts of Opn's charge object the adapter reads. */
export interface OpnCharge {
  object?: unknown;
  id?: unknown;
  amount?: unknown;
  currency?: unknown;
  status?: unknown;
  paid?: unknown;
  expires_at?: unknown;
  metadata?: { reference?: unknown } | null;
  source?: { type?: unknown; scannable_code?: { image?: { download_uri?: unknown } | null } | null } | null;
}

interface OpnError {
  object?: unknown;
  code?: unknown;
  message?: unknown;
}

/** Documented error codes of the create, to what the operator should check. */
export const OPN_CREATE_ERRORS: Record<string, { reason: string; why: string }> = {
  authentication_failure: { reason: 'GATEWAY_AUTH', why: 'check OPN_SECRET_KEY (the secret key, skey_...)' },
  invalid_charge: { reason: 'GATEWAY_REFUSED', why: 'Opn refused the charge (amount below the PromptPay minimum, or its currency)' },
  bad_request: { reason: 'GATEWAY_REFUSED', why: 'Opn refused the request as malformed' },
  not_found: { reason: 'GATEWAY_REFUSED', why: 'check OPN_BASE_URL' },
  service_not_found: { reason: 'GATEWAY_REFUSED', why: 'PromptPay is not enabled on this Opn account' },
  forbidden: { reason: 'GATEWAY_REFUSED', why: 'PromptPay is not enabled on this Opn account' },
};

const CHARGE_ID = /^chrg_[A-Za-z0-9_]{1,64}$/;

/** Verifies Opn's signature headers over the raw body; during a secret rotation any of the listed signatures counts. */
export function verifyOpnSignature(raw: Buffer, signature: unknown, timestamp: unknown, secretB64: string, now: Date): boolean {
  if (typeof signature !== 'string' || typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > OPN_SIGNATURE_TOLERANCE_S) return false;
  const key = Buffer.from(secretB64, 'base64');
  if (key.length === 0) return false;
  const expected = crypto.createHmac('sha256', key).update(`${timestamp}.`).update(raw).digest();
  return signature.split(',').some((s) => {
    const given = Buffer.from(s.trim(), 'hex');
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  });
}

export function signOpn(raw: Buffer | string, timestamp: string, secretB64: string): string {
  return crypto.createHmac('sha256', Buffer.from(secretB64, 'base64')).update(`${timestamp}.`).update(raw).digest('hex');
}

export class OpnGateway implements PaymentGateway {
  readonly name = 'opn';
  readonly http: HttpClient;
  private readonly log?: LogSink;
  private readonly auth: string;
  /** Our reference -> Opn's charge id, for the cancel (else found by the search). */
  private readonly charges = new Map<string, string>();

  constructor(private readonly opts: OpnOptions) {
    this.log = opts.log;
    this.auth = `Basic ${Buffer.from(`${opts.secretKey}:`).toString('base64')}`;
    this.http = adapterClient('opn', OPN_BASE_URL, opts, { secrets: [opts.secretKey, opts.webhookSecret, this.authToken()] });
  }

  private authToken(): string {
    return Buffer.from(`${this.opts.secretKey}:`).toString('base64');
  }

  private get headers() {
    return { authorization: this.auth };
  }

  async createQr(req: GatewayQrRequest, call?: ProviderCall): Promise<GatewayQr> {
    if (req.channel !== 'E2P') throw new GatewayError('CHANNEL_UNSUPPORTED');
    if (!Number.isSafeInteger(req.amountSatang) || req.amountSatang <= 0) throw new GatewayError('INVALID_AMOUNT');
    let status: number;
    let body: OpnCharge & OpnError;
    try {
      const answer = await this.http.request({
        operation: 'createCharge',
        method: 'POST',
        path: '/charges',
        headers: { ...this.headers, 'idempotency-key': req.reference },
        // No expiry is asked for (the create's documented parameters have none): ours is enforced by our webhook, and a
        // cancel expires the charge.
        json: { amount: req.amountSatang, currency: 'thb', source: { type: 'promptpay' }, metadata: { reference: req.reference } },
        // Sent once: a timeout is answered by asking for the charge, never by a second create.
        idempotent: false,
        call,
      });
      status = answer.status;
      body = (answer.body ?? {}) as OpnCharge & OpnError;
    } catch (e) {
      if (!(e instanceof ProviderTimeoutError)) throw new GatewayError('GATEWAY_UNAVAILABLE');
      const found = await this.findCharge(req.reference, call).catch(() => null);
      if (!found) throw new GatewayError('GATEWAY_TIMEOUT');
      return this.toQr(found, req, call);
    }
    if (status === 200 && body.object === 'charge') return this.toQr(body, req, call);
    const code = typeof body.code === 'string' ? body.code : '';
    const known = OPN_CREATE_ERRORS[code];
    this.log?.error({ provider: 'opn', reqId: call?.requestId, status, code: code || null }, `Opn refused the PromptPay charge: ${known?.why ?? 'an answer the adapter does not know'}`);
    throw new GatewayError(known?.reason ?? 'GATEWAY_REFUSED');
  }

  private toQr(charge: OpnCharge, req: GatewayQrRequest, call?: ProviderCall): GatewayQr {
    const image = charge.source?.scannable_code?.image?.download_uri;
    const ok =
      typeof charge.id === 'string' &&
      CHARGE_ID.test(charge.id) &&
      charge.status === 'pending' &&
      charge.amount === req.amountSatang &&
      typeof image === 'string' &&
      /^https?:\/\//.test(image);
    if (!ok) {
      this.log?.error({ provider: 'opn', reqId: call?.requestId, status: typeof charge.status === 'string' ? charge.status : null }, 'Opn answered the charge with something undocumented (no pending PromptPay QR of our amount)');
      throw new GatewayError('GATEWAY_REFUSED');
    }
    this.charges.set(req.reference, charge.id as string);
    const theirs = typeof charge.expires_at === 'string' ? new Date(charge.expires_at) : null;
    const expiresAt = theirs && !Number.isNaN(theirs.getTime()) && theirs < req.expiresAt ? theirs : req.expiresAt;
    return { payload: '', imageUrl: image as string, expiresAt };
  }

  /** The charge carrying our reference in its metadata, by Opn's search; null when none; throws when Opn cannot be asked. */
  async findCharge(reference: string, call?: ProviderCall): Promise<OpnCharge | null> {
    const answer = await this.http.request({
      operation: 'searchCharge',
      method: 'GET',
      path: '/search',
      query: { scope: 'charge', query: reference },
      headers: this.headers,
      idempotent: true,
      call,
    });
    const data = (answer.body as { data?: OpnCharge[] } | null)?.data;
    // Another answer (a refused key, an undocumented body) is no "not found": the poll must not read it as one.
    if (answer.status !== 200 || !Array.isArray(data)) throw new GatewayError('GATEWAY_UNAVAILABLE');
    return data.find((c) => c?.metadata?.reference === reference) ?? null;
  }

  /** GET /charges/:id: the charge, or null when Opn does not know it (404); throws when Opn cannot be asked. */
  async chargeOf(id: string, call?: ProviderCall): Promise<OpnCharge | null> {
    if (!CHARGE_ID.test(id)) return null;
    const answer = await this.http.request({ operation: 'getCharge', method: 'GET', path: `/charges/${id}`, headers: this.headers, idempotent: true, call });
    if (answer.status === 404) return null;
    const body = answer.body as OpnCharge | null;
    if (answer.status !== 200 || body?.object !== 'charge') throw new GatewayError('GATEWAY_UNAVAILABLE');
    return body;
  }

  async cancelQr(reference: string, call?: ProviderCall): Promise<void> {
    let id = this.charges.get(reference);
    if (!id) {
      const found = await this.findCharge(reference, call).catch(() => null);
      id = typeof found?.id === 'string' ? found.id : undefined;
    }
    if (!id || !CHARGE_ID.test(id)) return;
    this.charges.delete(reference);
    await this.http.request({ operation: 'expireCharge', method: 'POST', path: `/charges/${id}/expire`, headers: this.headers, idempotent: true, call }).catch(() => undefined);
  }

  async readWebhook(raw: Buffer, headers: Record<string, string | string[] | undefined>, call?: ProviderCall): Promise<GatewayWebhook> {
    const now = (this.opts.now ?? (() => new Date()))();
    if (!verifyOpnSignature(raw, headers[OPN_SIGNATURE_HEADER], headers[OPN_TIMESTAMP_HEADER], this.opts.webhookSecret, now)) return { kind: 'forged' };
    let event: { object?: unknown; key?: unknown; data?: { object?: unknown; id?: unknown } } | null;
    try {
      event = JSON.parse(raw.toString('utf8'));
    } catch {
      return { kind: 'ignored', outcome: 'IGNORED' };
    }
    if (event?.object !== 'event' || event.key !== 'charge.complete' || event.data?.object !== 'charge' || typeof event.data.id !== 'string') {
      return { kind: 'ignored', outcome: 'IGNORED' };
    }
    // The delivery only names the charge: its amount and status are read from Opn itself.
    let charge: OpnCharge | null;
    try {
      charge = await this.chargeOf(event.data.id, call);
    } catch {
      return { kind: 'unavailable' };
    }
    return paymentOfCharge(charge && charge.id === event.data.id ? charge : null);
  }

  /**
   * The poll for a QR whose webhook never arrived (server/plugins/deposits/gateway-poll.ts): the charge carrying our
   * reference, found by the search, read as a fetched charge is read for the webhook.
   */
  async paymentOf(reference: string, call?: ProviderCall): Promise<GatewayWebhook> {
    let charge: OpnCharge | null;
    try {
      charge = await this.findCharge(reference, call);
    } catch {
      return { kind: 'unavailable' };
    }
    return paymentOfCharge(charge);
  }
}

/**
 * A charge fetched from Opn itself (by id for the webhook, by our reference for the poll), as a payment: credited only
 * when successful, paid, in THB, with one of our references in its metadata and a positive amount in satang.
 */
export function paymentOfCharge(charge: OpnCharge | null): GatewayWebhook {
  if (!charge || typeof charge.id !== 'string') return { kind: 'ignored', outcome: 'UNKNOWN_CHARGE' };
  const reference = charge.metadata?.reference;
  const paid = charge.status === 'successful' && charge.paid === true && String(charge.currency).toLowerCase() === 'thb';
  if (!paid || typeof reference !== 'string' || !Number.isSafeInteger(charge.amount) || (charge.amount as number) <= 0) return { kind: 'ignored', outcome: 'NOT_PAID' };
  return { kind: 'paid', paymentId: charge.id, reference, amountSatang: charge.amount as number };
}
