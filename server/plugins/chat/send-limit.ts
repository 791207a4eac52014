import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * The per-identity send limit of the chat (docs/chat.md "Send limit"): at most `max` messages per `windowMs`
 * from one player or one guest id, counted in fixed windows of the app clock. With Redis the count is shared by
 * every server process (INCR on `{prefix}:chat-send:{who}:{window}`, expiring after two windows); otherwise it
 * lives in this process's memory. While Redis is unavailable (stopped, restarting, unreachable) each process counts
 * in its own memory instead, as the global rate limit does (docs/operations.md "Without Redis, and other faults"):
 * a flood from one identity is still stopped (at most WORKERS x the limit gets through) and nobody is silenced, and
 * the answer does not wait for the client's reconnect attempts. Redis's count is used again once it is back.
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
  // No offline queue: a count Redis cannot take now is counted in memory at once, never queued behind reconnects.
  const redis = new RedisClient(url, { connectTimeout: 10_000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (err: Error) => log.debug({ err: err.message }, 'chat send-limit redis error'));
  const state = { where: 'redis' as 'redis' | 'memory' };
  const counter = (kind: string, max: number, windowMs: number) => redisCounter(redis, `${prefix}:${kind}`, log, max, windowMs, state);
  return {
    sends: counter('chat-send', SEND_LIMIT.max, SEND_LIMIT.windowMs),
    guestIds: counter('chat-guest-ids', limits.guestIdsPerHour, GUEST_IDS_WINDOW_MS),
    guestSends: counter('chat-guest-send', limits.guestSendsPerMinute, GUEST_SENDS_WINDOW_MS),
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}

/** Where the chat's counters of one connection count now: a change is one log line. */
interface CounterState {
  where: 'redis' | 'memory';
}

function redisCounter(redis: Redis, keyPrefix: string, log: FastifyBaseLogger, max: number, windowMs: number, state: CounterState): SendLimiter {
  const memory = memorySendLimiter(max, windowMs);
  const inMemory = (who: string, now: Date, err: string, requestLog?: FastifyBaseLogger) => {
    if (state.where === 'redis') (requestLog ?? log).warn({ err }, 'chat send-limit: Redis unavailable, counting in this process until it is back');
    state.where = 'memory';
    return memory.hit(who, now);
  };
  return {
    async hit(who, now, requestLog) {
      if (redis.status !== 'ready') return inMemory(who, now, `redis ${redis.status}`, requestLog);
      const window = Math.floor(now.getTime() / windowMs);
      const key = `${keyPrefix}:${who}:${window}`;
      try {
        const res = await redis.multi().incr(key).pexpire(key, windowMs * 2).exec();
        const n = Number(res?.[0]?.[1] ?? 0);
        if (state.where === 'memory') (requestLog ?? log).info('chat send-limit: counting in Redis again');
        state.where = 'redis';
        return n <= max;
      } catch (err) {
        return inMemory(who, now, (err as Error).message, requestLog);
      }
    },
    // The connection is the limiters' (redisChatLimiters closes it).
    async close() {},
  };
}
