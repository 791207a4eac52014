import { bankAccountView } from '../accounts';

/** JSON schemas of the wallet routes (request and every response). Amounts on the wire are baht. */
export { errorBody, errors } from '../../lib/wire-schemas';

// Amounts are JSON numbers; "5" is refused by the schema (400 INVALID_USER_INFO) like any malformed amount.
const amount = { type: 'number' } as const;
const code = { type: 'string', minLength: 1, maxLength: 32 } as const;

export const slot = {
  type: 'object',
  properties: {
    code: { type: 'string' },
    name: { type: 'string' },
    category: { type: 'string', enum: ['slot', 'sport', 'lotto'] },
    isActive: { type: 'boolean' },
    amount: { type: 'number' },
    ftWalletSlot: { type: 'number' },
    logo: { type: 'string' },
    background: { type: 'string' },
    web: { type: ['string', 'null'] },
    android: { type: ['string', 'null'] },
    ios: { type: ['string', 'null'] },
    // Issue 42: the aggregator debits and credits the wallet itself (games.wallet_mode 'seamless'); such a slot never
    // has a game account, so isActive false, amount 0 and web null always.
    seamless: { type: 'boolean' },
  },
  required: ['code', 'name', 'category', 'isActive', 'amount', 'ftWalletSlot', 'logo', 'background', 'web', 'android', 'ios', 'seamless'],
} as const;

export const walletResponse = {
  type: 'object',
  properties: {
    profile: {
      type: 'object',
      properties: { name: { type: 'string' }, username: { type: 'string' }, _id: { type: 'string' }, coin: { type: 'number' } },
      required: ['name', 'username', '_id', 'coin'],
    },
    bankAccount: bankAccountView,
    wallet: { type: 'object', properties: { amount: { type: 'number' } }, required: ['amount'] },
    invite: {
      type: 'object',
      properties: { amount: { type: 'number' }, success: { type: 'number' }, fail: { type: 'number' } },
      required: ['amount', 'success', 'fail'],
    },
    slots: { type: 'array', items: slot },
  },
  required: ['profile', 'bankAccount', 'wallet', 'invite', 'slots'],
} as const;

export const credentials = {
  type: 'object',
  properties: {
    username: { type: 'string' },
    password: { type: 'string' },
    event: { type: 'object', additionalProperties: true },
  },
  required: ['username', 'password'],
} as const;

export const slotCodeParams = { type: 'object', properties: { slotCode: code }, required: ['slotCode'] } as const;

export const transferBody = {
  type: 'object',
  properties: { from: code, to: code, amount },
  required: ['from', 'to', 'amount'],
  additionalProperties: false,
} as const;

export const transferAllBody = { type: 'object', properties: { to: code }, required: ['to'], additionalProperties: false } as const;

export const withdrawBody = { type: 'object', properties: { amount }, required: ['amount'], additionalProperties: false } as const;

/** 200 settled; 202 still waiting for the provider (the reconciler finishes it). */
export const transferResponse = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['SUCCESS', 'IN_PROGRESS'] },
    message: { type: 'string', enum: ['TRANSFER_SUCCESS', 'TRANSFER_IN_PROGRESS'] },
    transferId: { type: 'string' },
    amount: { type: 'number' },
  },
  required: ['status', 'message', 'transferId', 'amount'],
} as const;

export const withdrawResponse = {
  type: 'object',
  properties: {
    status: { type: 'string', enum: ['IN_PROGRESS', 'SUCCESS'] },
    message: { type: 'string', enum: ['WITHDRAW_IN_PROGRESS', 'WITHDRAW_SUCCESS'] },
    withdrawalId: { type: 'string' },
    amount: { type: 'number' },
  },
  required: ['status', 'message', 'withdrawalId', 'amount'],
} as const;

export const autoLoginParams = {
  type: 'object',
  properties: { game: code, username: { type: 'string', minLength: 1, maxLength: 64 }, password: { type: 'string', minLength: 1, maxLength: 128 } },
  required: ['game', 'username'],
} as const;

export const linkResponse = { type: 'object', properties: { link: { type: 'string' } }, required: ['link'] } as const;
