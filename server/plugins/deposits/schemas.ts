/** JSON schemas of the deposit routes (request and every response). */
export { errorBody as errorResponse } from '../../lib/wire-schemas';

export const qrParams = {
  type: 'object',
  properties: { code: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['code'],
  additionalProperties: false,
} as const;

export const qrRecord = {
  type: 'object',
  properties: {
    qrcodeId: { type: ['string', 'null'] },
    hasQrcode: { type: 'boolean' },
    bankCode: { type: ['string', 'null'] },
    qrcode: { type: ['string', 'null'] },
    payload: { type: ['string', 'null'] },
    // A gateway's own QR image (PAYMENT_GATEWAY=opn): present only then, with qrcode and payload null.
    imageUrl: { type: ['string', 'null'] },
    amount: { type: ['number', 'null'] },
    expireIn: { type: 'integer' },
    message: { type: 'string' },
    // GET without a live QR: how the player's most recent QR of that bank ended (null: none yet).
    last: {
      anyOf: [
        { type: 'null' },
        {
          type: 'object',
          properties: {
            qrcodeId: { type: 'string' },
            status: { type: 'string', enum: ['PAID', 'EXPIRED', 'CANCELLED', 'REVIEW'] },
            // Money of this QR sent to staff (issue 40, review-line.ts): what arrived, why, the statement line's reference.
            review: {
              type: 'object',
              properties: {
                status: { type: 'string', enum: ['OPEN', 'APPROVED', 'REJECTED'] },
                kind: { type: 'string' },
                amount: { type: 'number' },
                ref: { type: 'string' },
              },
              required: ['status', 'kind', 'amount', 'ref'],
            },
          },
          required: ['qrcodeId', 'status'],
        },
      ],
    },
  },
  required: ['hasQrcode', 'message'],
} as const;

/**
 * A refused QR create: the QR record saying hasQrcode false (the SPA shows its message), or, for a failure
 * before the route's own checks (no token, bad JSON, rate limit...), the plain error envelope. Both carry
 * `message`, so every error answer of the route can be serialized.
 */
export const qrRefusal = { ...qrRecord, required: ['message'] } as const;

export const createQrBody = {
  type: 'object',
  // amount is checked by the service (QR_FAIL, JSON numbers only), so a missing or malformed one of any type
  // gets the QR answer too.
  properties: { amount: {} },
} as const;

export const webhookAnswer = {
  type: 'object',
  properties: { received: { type: 'boolean' }, id: { type: 'string' }, outcome: { type: 'string' } },
  required: ['received', 'id', 'outcome'],
} as const;

export const slip = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    createdAt: { type: 'string' },
    amount: { type: 'number' },
    status: { type: 'string', enum: ['SUCCESS', 'FAILED', 'IN_PROGRESS'] },
    note: { type: ['string', 'null'] },
    link: { type: ['string', 'null'] },
    reference: { type: ['string', 'null'] },
  },
  required: ['id', 'createdAt', 'amount', 'status', 'note', 'link', 'reference'],
} as const;

export const slipUploadAnswer = {
  type: 'object',
  properties: { message: { type: 'string' }, slip },
  required: ['message', 'slip'],
} as const;

export { pageBody } from '../../lib/wire-schemas';

export const slipList = {
  type: 'object',
  properties: { total: { type: 'integer' }, slips: { type: 'array', items: slip } },
  required: ['total', 'slips'],
} as const;

export const referenceParams = {
  type: 'object',
  properties: { reference: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['reference'],
  additionalProperties: false,
} as const;

export const urlAnswer = { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } as const;

export const slipImageParams = {
  type: 'object',
  properties: { id: { type: 'string', pattern: '^slp_[0-9a-f]{24}$' } },
  required: ['id'],
  additionalProperties: false,
} as const;

export const slipImageQuery = {
  type: 'object',
  properties: { p: { type: 'string' }, exp: { type: 'string' }, sig: { type: 'string' } },
} as const;

export const truelinkBody = {
  type: 'object',
  // An empty or missing link is TRUELINK_INVALID from the service, like any other link that does not open.
  properties: { link: { type: 'string', maxLength: 4096 } },
} as const;

export const truelinkAnswer = {
  type: 'object',
  properties: { status: { type: 'string' }, amount: { type: 'number' }, message: { type: 'string' } },
  required: ['status', 'amount', 'message'],
} as const;
