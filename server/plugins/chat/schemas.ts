import { errors } from '../../lib/wire-schemas';

/** JSON schemas of the chat routes (docs/chat-wire.md, docs/chat.md). */
export { errors };

const str = { type: 'string' } as const;
const nullableStr = { type: ['string', 'null'] } as const;

export const button = {
  type: 'object',
  properties: { title: str, type: { type: 'string', enum: ['web', 'call', 'postback', 'other'] }, payload: str },
  required: ['title', 'type', 'payload'],
} as const;

/**
 * Every payload shape in one object schema (each shape's keys are distinct in name or agree in type), so the
 * answer carries exactly the known keys of whichever shape a message has: buttons, media, quick_replies,
 * generic or postback.
 */
const payload = {
  type: ['object', 'null'],
  properties: {
    buttons: { type: 'array', items: button },
    message: str,
    url: { type: 'boolean' },
    fileType: { type: 'string', enum: ['image', 'video', 'file'] },
    filePath: str,
    quick_replies: { type: 'array', items: button },
    elements: {
      type: 'array',
      items: {
        type: 'object',
        properties: { image_url: nullableStr, title: str, subtitle: nullableStr, buttons: { type: 'array', items: button } },
        required: ['image_url', 'title', 'subtitle', 'buttons'],
      },
    },
    payload: str,
  },
} as const;

export const chatMessage = {
  type: 'object',
  properties: {
    _id: str,
    sender: { type: 'string', enum: ['customer', 'other'] },
    message: str,
    message_type: { type: 'string', enum: ['text', 'buttons', 'media', 'quick_replies', 'generic', 'postback'] },
    payload,
    userId: nullableStr,
    guestId: nullableStr,
    username: nullableStr,
    name: nullableStr,
    createdAt: str,
    session_id: str,
    read: { type: 'boolean' },
  },
  required: ['_id', 'sender', 'message', 'message_type', 'payload', 'userId', 'guestId', 'username', 'name', 'createdAt', 'session_id', 'read'],
} as const;

/** userId / guestId as the SPA sends them (null or absent when it has none). */
const identity = {
  userId: { type: ['string', 'null'], maxLength: 32 },
  guestId: { type: ['string', 'null'], maxLength: 64 },
} as const;

export const configAnswer = { type: 'object', properties: { PREFIX: nullableStr }, required: ['PREFIX'] } as const;
export const guestAnswer = { type: 'object', properties: { guestId: str }, required: ['guestId'] } as const;

/** Fields the contract does not name are ignored (the spec's conversation body has more, such as createdAt). */
export const sendBody = {
  type: 'object',
  properties: {
    message: { type: 'string', maxLength: 2000 },
    message_type: { type: 'string', enum: ['text', 'postback', 'media'] },
    payload: { type: ['object', 'null'] },
    ...identity,
    name: { type: ['string', 'null'], maxLength: 64 },
    deviceToken: { type: ['string', 'null'], maxLength: 512 },
    locale: { type: 'string', enum: ['th', 'la', 'en'] },
  },
  required: ['message', 'message_type'],
} as const;

export const sendAnswer = { type: 'object', properties: { _id: str, createdAt: str, session_id: str }, required: ['_id', 'createdAt', 'session_id'] } as const;

export const historyBody = {
  type: 'object',
  properties: {
    ...identity,
    limit: { type: 'integer', minimum: 1, maximum: 50 },
    skip: { type: 'integer', minimum: 0, maximum: 1_000_000 },
  },
} as const;

export const historyAnswer = {
  type: 'object',
  properties: { total: { type: 'integer' }, messages: { type: 'array', items: chatMessage }, closed: { type: 'boolean' }, unread: { type: 'integer' } },
  required: ['total', 'messages', 'closed', 'unread'],
} as const;

export const identityBody = { type: 'object', properties: identity } as const;
export const readAnswer = { type: 'object', properties: { read: { type: 'integer' } }, required: ['read'] } as const;
export const uploadAnswer = { type: 'object', properties: { path: str }, required: ['path'] } as const;
export const mediaParams = { type: 'object', properties: { name: { type: 'string', maxLength: 64 } }, required: ['name'] } as const;

// ---- staff

export const conversationSummary = {
  type: 'object',
  properties: {
    id: str,
    userId: nullableStr,
    guestId: nullableStr,
    name: nullableStr,
    lastMessage: nullableStr,
    lastAt: str,
    unread: { type: 'integer' },
    status: { type: 'string', enum: ['open', 'waiting_staff', 'closed'] },
  },
  required: ['id', 'userId', 'guestId', 'name', 'lastMessage', 'lastAt', 'unread', 'status'],
} as const;

export const listQuery = {
  type: 'object',
  properties: { status: { type: 'string', enum: ['open', 'closed', 'all'] } },
  additionalProperties: false,
} as const;
export const listAnswer = { type: 'object', properties: { conversations: { type: 'array', items: conversationSummary } }, required: ['conversations'] } as const;

export const idParams = { type: 'object', properties: { id: { type: 'string', maxLength: 20 } }, required: ['id'] } as const;

export const staffHistoryBody = {
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, maximum: 50 }, skip: { type: 'integer', minimum: 0, maximum: 1_000_000 } },
  additionalProperties: false,
} as const;
export const staffHistoryAnswer = {
  type: 'object',
  properties: { total: { type: 'integer' }, messages: { type: 'array', items: chatMessage }, closed: { type: 'boolean' } },
  required: ['total', 'messages', 'closed'],
} as const;

export const replyBody = {
  type: 'object',
  properties: {
    message: { type: 'string', maxLength: 2000 },
    message_type: { type: 'string', enum: ['text', 'quick_replies'] },
    payload: { type: ['object', 'null'] },
  },
  required: ['message', 'message_type'],
  additionalProperties: false,
} as const;
export const replyAnswer = { type: 'object', properties: { _id: str, createdAt: str }, required: ['_id', 'createdAt'] } as const;
export const okAnswer = { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] } as const;
