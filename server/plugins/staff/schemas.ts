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

export const loginReply = {
  type: 'object',
  properties: { token: { type: 'string' }, staff: staffView },
  required: ['token', 'staff'],
} as const;

export const okReply = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;
