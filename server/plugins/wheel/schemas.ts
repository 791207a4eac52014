/** JSON schemas of the prize-wheel routes (the wire contract, docs/invite-wheel.md). Cash amounts are baht. */
import { localized } from '../../lib/wire-schemas';

export const activeResponse = { type: 'object', properties: { isActive: { type: 'boolean' } }, required: ['isActive'] } as const;

const slice = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    label: { type: 'string' },
    labels: localized,
    bgColor: { type: 'string' },
    textColor: { type: 'string' },
    prize: { type: 'object', properties: { htmlDescription: localized }, required: ['htmlDescription'] },
  },
  required: ['code', 'label', 'labels', 'bgColor', 'textColor', 'prize'],
} as const;

export const setupResponse = {
  type: 'object',
  properties: {
    result: {
      type: 'object',
      properties: {
        activeSpinwheel: {
          type: ['object', 'null'],
          properties: { name: localized, slices: { type: 'array', items: slice } },
          required: ['name', 'slices'],
        },
        userCoin: { type: 'integer' },
      },
      required: ['activeSpinwheel', 'userCoin'],
    },
  },
  required: ['result'],
} as const;

export const spinResponse = {
  type: 'object',
  properties: {
    success: { type: 'boolean' },
    error: { type: 'null' },
    result: {
      type: 'object',
      properties: { code: { type: 'string' }, label: { type: 'string' }, labels: localized, remainingCoin: { type: 'integer' }, couponId: { type: ['string', 'null'] } },
      required: ['code', 'label', 'labels', 'remainingCoin', 'couponId'],
    },
  },
  required: ['success', 'error', 'result'],
} as const;

export const coupon = {
  type: 'object',
  properties: {
    _id: { type: 'string' },
    prize: {
      type: 'object',
      properties: { name: localized, label: { type: 'string' }, htmlDescription: localized },
      required: ['name', 'label', 'htmlDescription'],
    },
    amount: { type: 'number' },
    type: { type: 'string', enum: ['cash', 'coin', 'none'] },
    status: { type: 'string', enum: ['CLAIMABLE', 'CLAIMED', 'EXPIRED'] },
    expiresAt: { type: 'string' },
    createdAt: { type: 'string' },
  },
  required: ['_id', 'prize', 'amount', 'type', 'status', 'expiresAt', 'createdAt'],
} as const;

/** Query strings are text (no type coercion app-wide): page from 1, limit 1-100. */
export const couponQuery = {
  type: 'object',
  properties: { page: { type: 'string', pattern: '^[1-9][0-9]{0,5}$' }, limit: { type: 'string', pattern: '^([1-9][0-9]?|100)$' } },
} as const;

export const couponList = {
  type: 'object',
  properties: { coupons: { type: 'array', items: coupon }, total: { type: 'integer' } },
  required: ['coupons', 'total'],
} as const;

export const claimResponse = {
  type: 'object',
  properties: { message: { type: 'string', enum: ['SUCCESS'] }, coupon },
  required: ['message', 'coupon'],
} as const;

export { errorBody, errors } from '../../lib/wire-schemas';
