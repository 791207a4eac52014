import crypto from 'node:crypto';
import { startFake, type FakeAnswer, type FakeServer, type SeenRequest } from './fake-server';
import { signOpn } from '../../../adapters/payments/opn';

/**
 * Opn Payments (Omise) as its documentation says (docs/providers/opn.md): `POST /charges` with a PromptPay source
 * (Basic auth with the secret key, JSON or a form), `GET /charges/:id`, `POST /charges/:id/expire`,
 * `GET /search?scope=charge&query=`, the documented charge and error objects as data, and `pay(chargeId)`: the
 * customer scanned and paid, and Opn POSTs a signed `charge.complete` event to the app's webhook URL.
 */

/** The documented pending PromptPay charge (API reference, "Charges" with a promptpay source), as data. */
export const OPN_DOC_CHARGE = {
  object: 'charge',
  id: 'chrg_test_5rt6s9vah5lkvi1rh9c',
  livemode: false,
  location: '/charges/chrg_test_5rt6s9vah5lkvi1rh9c',
  amount: 100000,
  currency: 'THB',
  status: 'pending',
  authorized: false,
  paid: false,
  capturable: false,
  expired: false,
  expires_at: '2026-12-03T04:00:00Z',
  failure_code: null,
  failure_message: null,
  metadata: {},
  source: {
    object: 'source',
    id: 'src_test_5rt6s9v0fa4qn1bbg3y',
    type: 'promptpay',
    flow: 'offline',
    amount: 100000,
    currency: 'THB',
    scannable_code: {
      object: 'barcode',
      type: 'qr',
      image: {
        object: 'document',
        livemode: false,
        id: 'docu_test_5rt6s9vcqv0pj1tkgtt',
        filename: 'qrcode.png',
        location: '/charges/chrg_test_5rt6s9vah5lkvi1rh9c/documents/docu_test_5rt6s9vcqv0pj1tkgtt',
        download_uri: 'https://api.omise.co/charges/chrg_test_5rt6s9vah5lkvi1rh9c/documents/docu_test_5rt6s9vcqv0pj1tkgtt/downloads/D3A7B5C1E9F0',
      },
    },
  },
  created_at: '2026-12-02T04:00:00Z',
} as const;

/** The documented error objects (`{object: 'error', location, code, message}`) and their HTTP status. */
export const OPN_DOC_ERRORS = {
  authentication_failure: { status: 401, message: 'authentication failed' },
  invalid_charge: { status: 400, message: 'amount must be at least 2000' },
  bad_request: { status: 400, message: 'currency is currently not supported' },
  not_found: { status: 404, message: 'charge was not found' },
} as const;
export type OpnErrorCode = keyof typeof OPN_DOC_ERRORS;

export type FakeCharge = Record<string, unknown> & { id: string; amount: number; status: string; paid: boolean; metadata: Record<string, unknown> };

export interface DeliveryAnswer {
  status: number;
  body: unknown;
}

export interface OpnFake extends FakeServer {
  secretKey: string;
  /** Base64, as the dashboard shows it. */
  webhookSecret: string;
  /** Where `pay` and `deliver` POST the events: the app's `.../api/webhooks/opn`. */
  webhookUrl: string;
  charges: Map<string, FakeCharge>;
  /** Creates seen (POST /charges that made a charge), for "never two charges". */
  creates(): number;
  chargeFor(reference: string): FakeCharge | undefined;
  /** The customer paid (optionally another amount): the charge turns successful and a signed charge.complete goes out. */
  pay(chargeId: string, opts?: { amountSatang?: number }): Promise<DeliveryAnswer>;
  /** The customer paid, and the webhook never reached us (the poll's case): the charge turns successful, nothing is sent. */
  markPaid(chargeId: string, opts?: { amountSatang?: number }): FakeCharge;
  /** The charge.complete event of a charge, as Opn would deliver it. */
  eventFor(chargeId: string, eventId?: string): Record<string, unknown>;
  /** POSTs an event to webhookUrl, signed unless a signature is given. */
  deliver(event: unknown, opts?: { signature?: string; timestamp?: string }): Promise<DeliveryAnswer>;
  sign(raw: string, timestamp: string): string;
  /** The next answers (one per entry) are this documented error instead. */
  failWith(...errors: OpnErrorCode[]): void;
  /** Back to normal: no queued error, mode ok, requests forgotten (charges stay). */
  reset(): void;
}

function fieldsOf(req: SeenRequest): Record<string, unknown> {
  if (req.body && typeof req.body === 'object') return req.body as Record<string, unknown>;
  if (typeof req.body === 'string') {
    // A form: source[type]=promptpay, metadata[reference]=...
    const out: Record<string, unknown> = {};
    for (const [k, v] of new URLSearchParams(req.body)) {
      const m = /^(\w+)\[(\w+)\]$/.exec(k);
      if (m) out[m[1]] = { ...((out[m[1]] as object) ?? {}), [m[2]]: v };
      else out[k] = /^\d+$/.test(v) ? Number(v) : v;
    }
    return out;
  }
  return {};
}

const id = (prefix: string) => `${prefix}_test_${crypto.randomBytes(10).toString('hex').slice(0, 19)}`;

export async function startOpnFake(secretKey = 'skey_test_5rt6s9u1xa7f2kd0vbn', webhookSecret = Buffer.from('opn-fake-webhook-secret-0123456789').toString('base64')): Promise<OpnFake> {
  const charges = new Map<string, FakeCharge>();
  const queued: OpnErrorCode[] = [];
  let created = 0;
  const error = (code: OpnErrorCode): FakeAnswer => ({
    status: OPN_DOC_ERRORS[code].status,
    body: { object: 'error', location: `https://www.omise.co/api-errors#${code.replace(/_/g, '-')}`, code, message: OPN_DOC_ERRORS[code].message },
  });
  const auth = `Basic ${Buffer.from(`${secretKey}:`).toString('base64')}`;
  const handle = (req: SeenRequest): FakeAnswer => {
    if (req.headers.authorization !== auth) return error('authentication_failure');
    const next = queued.shift();
    if (next) return error(next);
    if (req.method === 'POST' && req.path === '/charges') {
      const f = fieldsOf(req);
      const source = f.source as { type?: unknown } | undefined;
      if (!Number.isInteger(f.amount) || String(f.currency).toLowerCase() !== 'thb' || source?.type !== 'promptpay') return error('bad_request');
      if ((f.amount as number) < 2000) return error('invalid_charge');
      const key = req.headers['idempotency-key'];
      const again = typeof key === 'string' ? [...charges.values()].find((c) => c.idempotency_key === key) : undefined;
      if (again) return { status: 200, body: again };
      created++;
      const chargeId = id('chrg');
      const docu = id('docu');
      const expires = typeof f.expires_at === 'string' ? f.expires_at : new Date(Date.now() + 24 * 3600_000).toISOString();
      const charge: FakeCharge = {
        ...OPN_DOC_CHARGE,
        id: chargeId,
        location: `/charges/${chargeId}`,
        amount: f.amount as number,
        expires_at: expires,
        metadata: (f.metadata as Record<string, unknown>) ?? {},
        idempotency_key: typeof key === 'string' ? key : null,
        source: {
          ...OPN_DOC_CHARGE.source,
          id: id('src'),
          amount: f.amount,
          scannable_code: {
            ...OPN_DOC_CHARGE.source.scannable_code,
            image: { ...OPN_DOC_CHARGE.source.scannable_code.image, id: docu, location: `/charges/${chargeId}/documents/${docu}`, download_uri: `${server.url}/charges/${chargeId}/documents/${docu}/downloads/qrcode.png` },
          },
        },
        created_at: new Date().toISOString(),
      };
      charges.set(chargeId, charge);
      return { status: 200, body: charge };
    }
    const one = /^\/charges\/([^/]+)(\/expire)?$/.exec(req.path);
    if (one) {
      const charge = charges.get(one[1]);
      if (!charge) return error('not_found');
      if (req.method === 'POST' && one[2]) {
        if (charge.status === 'pending') Object.assign(charge, { status: 'expired', expired: true });
        return { status: 200, body: charge };
      }
      if (req.method === 'GET' && !one[2]) return { status: 200, body: charge };
    }
    if (req.method === 'GET' && req.path === '/search' && req.query.scope === 'charge') {
      const q = req.query.query ?? '';
      const data = [...charges.values()].filter((c) => JSON.stringify(c.metadata).includes(q) || c.id === q);
      return { status: 200, body: { object: 'search', scope: 'charge', query: q, total: data.length, data } };
    }
    return error('not_found');
  };
  const server = await startFake(handle, () => ({ status: 500, body: { object: 'error', code: 'internal_error', message: 'request could not be completed due to an internal error' } }));
  const sign = (raw: string, timestamp: string) => signOpn(raw, timestamp, webhookSecret);
  const deliver = async (event: unknown, opts: { signature?: string; timestamp?: string } = {}): Promise<DeliveryAnswer> => {
    const raw = JSON.stringify(event);
    const timestamp = opts.timestamp ?? String(Math.floor(Date.now() / 1000));
    const res = await fetch(fake.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'omise-signature': opts.signature ?? sign(raw, timestamp), 'omise-signature-timestamp': timestamp },
      body: raw,
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body };
  };
  const markPaid = (chargeId: string, opts: { amountSatang?: number } = {}): FakeCharge => {
    const charge = charges.get(chargeId);
    if (!charge) throw new Error(`opn fake: no charge ${chargeId}`);
    return Object.assign(charge, { status: 'successful', paid: true, authorized: true, paid_at: new Date().toISOString(), ...(opts.amountSatang ? { amount: opts.amountSatang } : {}) });
  };
  const eventFor = (chargeId: string, eventId = id('evnt')) => ({
    object: 'event',
    id: eventId,
    livemode: false,
    location: `/events/${eventId}`,
    key: 'charge.complete',
    created_at: new Date().toISOString(),
    data: charges.get(chargeId) ?? { object: 'charge', id: chargeId },
  });
  const fake: OpnFake = Object.assign(server, {
    secretKey,
    webhookSecret,
    webhookUrl: '',
    charges,
    creates: () => created,
    chargeFor: (reference: string) => [...charges.values()].find((c) => c.metadata?.reference === reference),
    async pay(chargeId: string, opts: { amountSatang?: number } = {}) {
      markPaid(chargeId, opts);
      return deliver(eventFor(chargeId));
    },
    markPaid,
    eventFor,
    deliver,
    sign,
    failWith: (...errors: OpnErrorCode[]) => void queued.push(...errors),
    reset: () => {
      queued.length = 0;
      server.mode = 'ok';
      server.requests.length = 0;
    },
  });
  return fake;
}
