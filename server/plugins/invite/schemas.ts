/** JSON schemas of the invite routes (the wire contract, docs/invite-wheel.md). Amounts are baht, JSON numbers. */

export const received = {
  type: 'object',
  properties: { message: { type: 'string', enum: ['INVITE_BONUS_SUCCESS'] }, amount: { type: 'number' } },
  required: ['message', 'amount'],
} as const;

export const list = {
  type: 'object',
  properties: {
    invites: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          from: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
          amount: { type: 'number' },
          createdAt: { type: 'string' },
        },
        required: ['from', 'amount', 'createdAt'],
      },
    },
    total: { type: 'integer' },
    success: { type: 'integer' },
    fail: { type: 'integer' },
  },
  required: ['invites', 'total', 'success', 'fail'],
} as const;

export { bannerList, errorBody, errors, pageBody as listBody } from '../../lib/wire-schemas';
