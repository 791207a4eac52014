/**
 * JSON schemas of the limits routes (the wire contract, docs/responsible-play.md "Wire"). Amounts are baht, JSON
 * numbers. The bodies only require an object: their values are checked by the service so that every bad limit,
 * period or missing confirmation answers 422 LIMIT_INVALID rather than a schema's generic 400.
 */
export { errors } from '../../lib/wire-schemas';

export const WIRE_KINDS = ['depositDay', 'depositWeek', 'depositMonth', 'lossDay', 'lossWeek', 'lossMonth', 'sessionMinutes'] as const;
export const USAGE_KINDS = ['depositDay', 'depositWeek', 'depositMonth', 'lossDay', 'lossWeek', 'lossMonth'] as const;

const nullableNumber = { type: ['number', 'null'] } as const;

const limit = {
  type: 'object',
  properties: {
    value: nullableNumber,
    pending: {
      type: ['object', 'null'],
      properties: { value: nullableNumber, effectiveAt: { type: 'string' } },
      required: ['value', 'effectiveAt'],
    },
  },
  required: ['value', 'pending'],
} as const;

const byKind = <K extends readonly string[], S>(kinds: K, s: S) => ({
  type: 'object',
  properties: Object.fromEntries(kinds.map((k) => [k, s])) as Record<K[number], S>,
  required: [...kinds],
});

/** GET /api/limits, and the answer of every change. */
export const limitsState = {
  type: 'object',
  properties: {
    limits: byKind(WIRE_KINDS, limit),
    usage: byKind(USAGE_KINDS, { type: 'number' } as const),
    realityMinutes: { type: 'integer', enum: [30, 60] },
    restriction: {
      type: ['object', 'null'],
      properties: {
        kind: { type: 'string', enum: ['TIMEOUT', 'EXCLUSION'] },
        period: { type: 'string' },
        startsAt: { type: 'string' },
        endsAt: { type: 'string' },
      },
      required: ['kind', 'period', 'startsAt', 'endsAt'],
    },
    session: {
      type: 'object',
      properties: { startedAt: { type: 'string' }, now: { type: 'string' }, minuteMs: { type: 'integer' }, netResult: { type: 'number' } },
      required: ['startedAt', 'now', 'minuteMs', 'netResult'],
    },
  },
  required: ['limits', 'usage', 'realityMinutes', 'restriction', 'session'],
} as const;

/** PUT /api/limits { kind, value }: value in baht (deposit, loss) or whole minutes (sessionMinutes), null to remove. */
export const setLimitBody = {
  type: 'object',
  properties: { kind: { description: 'a wire kind' }, value: { description: 'number | null' } },
} as const;

/** PUT /api/limits/reality { minutes: 30 | 60 }. */
export const realityBody = { type: 'object', properties: { minutes: { description: '30 | 60' } } } as const;

/** POST /api/limits/restriction { kind, period, confirm: true }. */
export const restrictionBody = {
  type: 'object',
  properties: {
    kind: { description: "'TIMEOUT' | 'EXCLUSION'" },
    period: { description: "'24h' | '7d' | '30d' (TIMEOUT), '6m' | '1y' | '5y' (EXCLUSION)" },
    confirm: { description: 'must be true' },
  },
} as const;

/** GET /api/limits/history?page=N (1 by default). */
export const historyQuery = {
  type: 'object',
  properties: { page: { type: 'string', pattern: '^[1-9][0-9]{0,5}$' } },
} as const;

export const historyResponse = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          action: { type: 'string' },
          detail: { type: 'object', additionalProperties: true },
          createdAt: { type: 'string' },
        },
        required: ['id', 'action', 'detail', 'createdAt'],
      },
    },
    page: { type: 'integer' },
    totalPages: { type: 'integer' },
  },
  required: ['items', 'page', 'totalPages'],
} as const;
