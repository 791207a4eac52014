import { STAFF_ROLES } from '../../db/schema-staff';

/** JSON schemas of the staff account routes (docs/staff.md). Bodies may carry extra fields (ignored). */

export const loginBody = {
  type: 'object',
  properties: { username: { type: 'string', minLength: 1, maxLength: 32 }, password: { type: 'string', minLength: 1, maxLength: 128 } },
  required: ['username', 'password'],
} as const;

export const staffView = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    username: { type: 'string' },
    name: { type: 'string' },
    role: { type: 'string', enum: [...STAFF_ROLES] },
  },
  required: ['id', 'username', 'name', 'role'],
} as const;

export const signedIn = {
  type: 'object',
  properties: { token: { type: 'string' }, staff: staffView },
  required: ['token', 'staff'],
} as const;

/** Signed in, or (an account with a second factor) `{totpRequired: true, challenge}` for POST /api/staff/login/totp. */
export const loginReply = {
  type: 'object',
  properties: { token: { type: 'string' }, staff: staffView, totpRequired: { type: 'boolean' }, challenge: { type: 'string' } },
} as const;

export const totpBody = {
  type: 'object',
  properties: { challenge: { type: 'string', minLength: 1, maxLength: 2048 }, code: { type: 'string', minLength: 1, maxLength: 16 } },
  required: ['challenge', 'code'],
} as const;

/** GET /api/staff/audit?limit=1..100&before=<id>; other values 400 INVALID_USER_INFO. */
export const auditQuery = {
  type: 'object',
  properties: { limit: { type: 'string', pattern: '^(?:[1-9][0-9]?|100)$' }, before: { type: 'string', pattern: '^[1-9][0-9]{0,14}$' } },
  additionalProperties: false,
} as const;

export const auditReply = {
  type: 'object',
  properties: {
    entries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          staff: { type: 'object', properties: { id: { type: 'integer' }, username: { type: 'string' }, name: { type: 'string' } }, required: ['id', 'username', 'name'] },
          action: { type: 'string' },
          subjectType: { type: 'string' },
          subjectId: { type: 'string' },
          reason: { type: ['string', 'null'] },
          detail: { type: ['object', 'null'], additionalProperties: true },
          createdAt: { type: 'string' },
        },
        required: ['id', 'staff', 'action', 'subjectType', 'subjectId', 'reason', 'detail', 'createdAt'],
      },
    },
  },
  required: ['entries'],
} as const;

export const okReply = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;
