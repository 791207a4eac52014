import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * The per-identity send limit of the chat (docs/chat.md "Send limit"): at most `max` messages per `windowMs`
 * from one player or one guest id, counted in fixed windows of the app clock. With Redis the count is shared by
 * every server process (INCR on `{prefix}:chat-send:{who}:{window}`, expiring after two windows); otherwise it
 * lives in this process's memory. A Redis failure lets the message through and logs a warning, as the global
 * rate limit does, rather than silencing every customer.
 */
export interface SendLimiter {
  /** Counts one message; false when the identity is over the limit in this window. `log`: the request's logger. */
  hit(who: string, now: Date, log?: FastifyBaseLogger): Promise<boolean>;
  close(): Promise<void>;
}

export const SEND_LIMIT = { max: 20, windowMs: 10_000 } as const;

export function memorySendLimiter(max: number = SEND_LIMIT.max, windowMs: number = SEND_LIMIT.windowMs): SendLimiter {
  const counts = new Map<string, { window: number; n: number }>();
  return {
    async hit(who, now) {
      const window = Math.floor(now.getTime() / windowMs);
      if (counts.size > 10_000) for (const [k, v] of counts) if (v.window < window) counts.delete(k);
      const entry = counts.get(who);
      if (!entry || entry.window !== window) {
        counts.set(who, { window, n: 1 });
        return true;
      }
      entry.n += 1;
      return entry.n <= max;
    },
    async close() {
      counts.clear();
    },
  };
}

/**
 * The chat's counters (docs/chat.md "Send limit", "Guests"): the per-identity send limit, and per client address the
 * guest ids issued and the guests' messages. `kind` names each counter's keys.
 */
export interface ChatLimiters {
  sends: SendLimiter;
  guestIds: SendLimiter;
  guestSends: SendLimiter;
}

export const GUEST_IDS_WINDOW_MS = 3_600_000;
export const GUEST_SENDS_WINDOW_MS = 60_000;

export function memoryChatLimiters(limits: { guestIdsPerHour: number; guestSendsPerMinute: number }): ChatLimiters & { close(): Promise<void> } {
  return {
    async close() {},
    sends: memorySendLimiter(),
    guestIds: memorySendLimiter(limits.guestIdsPerHour, GUEST_IDS_WINDOW_MS),
    guestSends: memorySendLimiter(limits.guestSendsPerMinute, GUEST_SENDS_WINDOW_MS),
  };
}

/** The three counters on one Redis connection, shared by every process of the site (keys under CHAT_PREFIX). */
export async function redisChatLimiters(url: string, prefix: string, log: FastifyBaseLogger, limits: { guestIdsPerHour: number; guestSendsPerMinute: number }): Promise<ChatLimiters & { close(): Promise<void> }> {
  const { default: RedisClient } = await import('ioredis');
  const redis = new RedisClient(url, { connectTimeout: 10_000, maxRetriesPerRequest: 1 });
  redis.on('error', (err: Error) => log.warn({ err: err.message }, 'chat send-limit redis error'));
  const counter = (kind: string, max: number, windowMs: number) => redisCounter(redis, `${prefix}:${kind}`, log, max, windowMs);
  return {
    sends: counter('chat-send', SEND_LIMIT.max, SEND_LIMIT.windowMs),
    guestIds: counter('chat-guest-ids', limits.guestIdsPerHour, GUEST_IDS_WINDOW_MS),
    guestSends: counter('chat-guest-send', limits.guestSendsPerMinute, GUEST_SENDS_WINDOW_MS),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

function redisCounter(redis: Redis, keyPrefix: string, log: FastifyBaseLogger, max: number, windowMs: number): SendLimiter {
  return {
    async hit(who, now, requestLog) {
      const window = Math.floor(now.getTime() / windowMs);
      const key = `${keyPrefix}:${who}:${window}`;
      try {
        const res = await redis.multi().incr(key).pexpire(key, windowMs * 2).exec();
        const n = Number(res?.[0]?.[1] ?? 0);
        return n <= max;
      } catch (err) {
        (requestLog ?? log).warn({ err: (err as Error).message }, 'chat send-limit redis error: message let through');
        return true;
      }
    },
    // The connection is the limiters' (redisChatLimiters closes it).
    async close() {},
  };
}
