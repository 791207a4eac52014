import { errors } from '../../lib/wire-schemas';
import { statementItem } from '../statement';

/** The back office's wire shapes (docs/staff.md "Back office"): every request part and every answer code. */

export { errors };

export const REVIEW_STATUSES = ['OPEN', 'APPROVED', 'REJECTED'] as const;

export const PLAYER_STATUSES = ['active', 'inactive', 'gone'] as const;
export type PlayerStatus = (typeof PLAYER_STATUSES)[number];
/** What staff may set: `gone` is the player's own leaving and is never set or undone here. */
export const SETTABLE = ['active', 'inactive'] as const;
export type Settable = (typeof SETTABLE)[number];

export const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 64 } }, required: ['id'] } as const;

const person = (extra: string) =>
  ({
    type: ['object', 'null'],
    properties: { id: { type: 'integer' }, [extra]: { type: 'string' }, name: { type: 'string' } },
    required: ['id', extra, 'name'],
  }) as const;

export const reviewSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    kind: { type: 'string' },
    source: { type: 'string' },
    reference: { type: 'string' },
    player: person('phone'),
    amount: { type: 'number' },
    currency: { type: 'string' },
    createdAt: { type: 'string' },
    status: { type: 'string', enum: REVIEW_STATUSES },
    decidedBy: person('username'),
    decidedAt: { type: ['string', 'null'] },
    reason: { type: ['string', 'null'] },
  },
  required: ['id', 'kind', 'source', 'reference', 'player', 'amount', 'currency', 'createdAt', 'status', 'decidedBy', 'decidedAt', 'reason'],
} as const;

export const reviewListQuery = { type: 'object', properties: { status: { type: 'string', enum: REVIEW_STATUSES } }, additionalProperties: false } as const;
export const reviewListReply = { type: 'object', properties: { reviews: { type: 'array', items: reviewSchema } }, required: ['reviews'] } as const;

export const payoutItem = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    player: { type: 'object', properties: { id: { type: 'integer' }, phone: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'phone', 'name'] },
    amount: { type: 'number' },
    currency: { type: 'string' },
    bankCode: { type: 'string' },
    bankAccountNo: { type: 'string' },
    bankAccountName: { type: 'string' },
    requestedAt: { type: 'string' },
    ageMinutes: { type: 'integer' },
    providerStatus: { type: 'string', enum: ['PENDING', 'SUCCEEDED', 'FAILED', 'UNKNOWN'] },
  },
  required: ['id', 'player', 'amount', 'currency', 'bankCode', 'bankAccountNo', 'bankAccountName', 'requestedAt', 'ageMinutes', 'providerStatus'],
} as const;

export const payoutListQuery = { type: 'object', properties: { overdue: { type: 'string', enum: ['0', '1'] } }, additionalProperties: false } as const;
export const payoutListReply = { type: 'object', properties: { payouts: { type: 'array', items: payoutItem } }, required: ['payouts'] } as const;
export const payoutActionReply = {
  type: 'object',
  properties: { id: { type: 'string' }, status: { type: 'string', enum: ['SUCCESS', 'FAILED'] } },
  required: ['id', 'status'],
} as const;

const player = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    phone: { type: 'string' },
    name: { type: 'string' },
    status: { type: 'string', enum: [...PLAYER_STATUSES] },
    currency: { type: 'string' },
    wallet: { type: 'number' },
    games: {
      type: 'array',
      items: { type: 'object', properties: { code: { type: 'string' }, name: { type: 'string' }, balance: { type: 'number' } }, required: ['code', 'name', 'balance'] },
    },
    coin: { type: 'integer' },
    createdAt: { type: 'string' },
    bank: {
      type: 'object',
      properties: { code: { type: 'string' }, accountNo: { type: 'string' }, accountName: { type: 'string' } },
      required: ['code', 'accountNo', 'accountName'],
    },
  },
  required: ['id', 'phone', 'name', 'status', 'currency', 'wallet', 'games', 'coin', 'createdAt', 'bank'],
} as const;

export const lookupReply = {
  type: 'object',
  properties: { player, movements: { type: 'array', items: statementItem } },
  required: ['player', 'movements'],
} as const;

export const statusReply = {
  type: 'object',
  properties: { id: { type: 'integer' }, status: { type: 'string', enum: [...PLAYER_STATUSES] } },
  required: ['id', 'status'],
} as const;
