/** JSON schemas of the bonus, promotion and refund routes (the wire contract). Amounts are baht, JSON numbers. */
import { banners, localized } from '../../lib/wire-schemas';
const received = { type: 'array', items: { type: 'object', properties: { updatedAt: { type: 'string' } }, required: ['updatedAt'] } } as const;
const bonusType = { type: 'string', enum: ['limit', 'day', 'week'] } as const;
const kind = { type: 'string', enum: ['bonus', 'promotion'] } as const;

/** Any text: an unknown or malformed code is answered NO_DATA / NO_PROMOTION by the route, not 400. */
export const codeParams = {
  type: 'object',
  properties: { code: { type: 'string', minLength: 1, maxLength: 64 } },
  required: ['code'],
  additionalProperties: false,
} as const;

export const bonusList = {
  type: 'object',
  properties: {
    bonuses: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          code: { type: 'string' },
          name: localized,
          type: bonusType,
          maxReceived: { type: 'integer' },
          percent: { type: 'number' },
          cap: { type: 'number' },
          turnoverMultiple: { type: 'number' },
          percentFail: { type: 'number' },
          banners,
          notice: localized,
          userBonus: {
            type: ['object', 'null'],
            properties: { _id: { type: 'string' }, isActive: { type: 'boolean' }, received },
            required: ['_id', 'isActive', 'received'],
          },
        },
        required: ['code', 'name', 'type', 'maxReceived', 'percent', 'cap', 'turnoverMultiple', 'percentFail', 'banners', 'notice', 'userBonus'],
      },
    },
  },
  required: ['bonuses'],
} as const;

/** A received bonus's terms and progress (termsView in service.ts): in the activation answer and the active progress. */
const terms = {
  code: { type: 'string' },
  kind,
  amount: { type: 'number' },
  startAmount: { type: 'number' },
  turnover: { type: 'number' },
  target: { type: 'number' },
  percentFail: { type: 'number' },
  failAt: { type: 'number' },
  createdAt: { type: 'string' },
} as const;
const termsRequired = ['code', 'kind', 'amount', 'startAmount', 'turnover', 'target', 'percentFail', 'failAt', 'createdAt'] as const;

export const userBonus = {
  type: 'object',
  properties: { _id: { type: 'string' }, isActive: { type: 'boolean' }, ...terms, received },
  required: ['_id', 'isActive', ...termsRequired, 'received'],
} as const;

export const activeResponse = {
  type: 'object',
  properties: {
    status: { type: 'boolean' },
    type: { type: ['string', 'null'], enum: ['limit', 'day', 'week', 'promotion', null] },
    progress: {
      type: ['object', 'null'],
      properties: { ...terms, name: localized },
      required: [...termsRequired, 'name'],
    },
  },
  required: ['status', 'type', 'progress'],
} as const;

export const minimumResponse = { type: 'object', properties: { minimum: { type: 'number' } }, required: ['minimum'] } as const;
export const messageResponse = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } as const;

const promotion = {
  type: 'object',
  properties: { code: { type: 'string' }, percentFail: { type: 'number' }, description: localized },
  required: ['code', 'percentFail', 'description'],
} as const;
export const promotionFound = promotion;
export const promotionCurrent = {
  type: 'object',
  properties: { promotion: { ...promotion, type: ['object', 'null'] } },
  required: ['promotion'],
} as const;

export const refundCheck = {
  type: 'object',
  properties: {
    result: { type: 'boolean' },
    bonus: { type: 'boolean' },
    info: localized,
    refundAmount: { type: 'number' },
    refundSuccess: { type: 'number' },
    refundFail: { type: 'number' },
  },
  required: ['result', 'bonus', 'info', 'refundAmount', 'refundSuccess', 'refundFail'],
} as const;

export const refundReceived = {
  type: 'object',
  properties: { message: { type: 'string', enum: ['REFUND_SUCCESS'] }, amount: { type: 'number' } },
  required: ['message', 'amount'],
} as const;

export const refundLog = {
  type: 'object',
  properties: {
    refunds: {
      type: 'array',
      items: { type: 'object', properties: { refundAmount: { type: 'number' }, createdAt: { type: 'string' } }, required: ['refundAmount', 'createdAt'] },
    },
    total: { type: 'integer' },
  },
  required: ['refunds', 'total'],
} as const;

export { bannerList, errorBody, errors, pageBody as refundLogBody } from '../../lib/wire-schemas';
