import type { FastifyBaseLogger } from 'fastify';

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

export function memorySendLimiter(max = SEND_LIMIT.max, windowMs = SEND_LIMIT.windowMs): SendLimiter {
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

export async function redisSendLimiter(url: string, prefix: string, log: FastifyBaseLogger, max = SEND_LIMIT.max, windowMs = SEND_LIMIT.windowMs): Promise<SendLimiter> {
  const { default: Redis } = await import('ioredis');
  const redis = new Redis(url, { connectTimeout: 10_000, maxRetriesPerRequest: 1 });
  redis.on('error', (err: Error) => log.warn({ err: err.message }, 'chat send-limit redis error'));
  return {
    async hit(who, now, requestLog) {
      const window = Math.floor(now.getTime() / windowMs);
      const key = `${prefix}:chat-send:${who}:${window}`;
      try {
        const res = await redis.multi().incr(key).pexpire(key, windowMs * 2).exec();
        const n = Number(res?.[0]?.[1] ?? 0);
        return n <= max;
      } catch (err) {
        (requestLog ?? log).warn({ err: (err as Error).message }, 'chat send-limit redis error: message let through');
        return true;
      }
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
