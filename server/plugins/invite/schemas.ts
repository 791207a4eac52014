/** JSON schemas of the invite routes (the wire contract, docs/invite-wheel.md). Amounts are baht, JSON numbers. */
export const errorBody = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } as const;
export const errors = { '4xx': errorBody, '5xx': errorBody } as const;

const localized = {
  type: 'object',
  properties: { th: { type: 'string' }, la: { type: 'string' }, en: { type: 'string' } },
  required: ['th', 'la', 'en'],
} as const;

export const bannerList = {
  type: 'object',
  properties: { banners: { type: 'array', items: { type: 'object', properties: { image: { type: 'string' }, html: localized }, required: ['image', 'html'] } } },
  required: ['banners'],
} as const;

export const received = {
  type: 'object',
  properties: { message: { type: 'string', enum: ['INVITE_BONUS_SUCCESS'] }, amount: { type: 'number' } },
  required: ['message', 'amount'],
} as const;

export const listBody = {
  type: 'object',
  properties: { page: { type: 'integer', minimum: 1, maximum: 100000 }, limit: { type: 'integer', minimum: 1, maximum: 100 } },
  additionalProperties: false,
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
