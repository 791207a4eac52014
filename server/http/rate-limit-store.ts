import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';

/**
 * The global rate limit's store with REDIS_URL (docs/operations.md "Without Redis, and other faults"): the count is
 * Redis's while its connection is ready, so every process of the site shares one budget per address; while it is
 * not (Redis stopped, restarting, unreachable), each process counts in its own memory instead. A per-address limit
 * counted per process still stops a flood from one address (at most WORKERS x the budget gets through), where
 * letting everything through would not, and counting in memory answers at once, where asking a Redis that is down
 * waits for the client's reconnect attempts (up to 2 s a request). The Redis connection reconnects by itself;
 * from its first ready moment the counts are Redis's again (the minutes counted in memory are not carried over).
 *
 * It implements @fastify/rate-limit's store contract (incr, read, child), with the library's own two stores inside:
 * its RedisStore (the Lua script every process runs) and its LocalStore (an LRU of the last 5,000 addresses).
 */
type Result = { current: number; ttl: number };
type Callback = (err: Error | null, res: Result | null) => void;
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void;
  read(key: string, cb: Callback, timeWindow: number, max: number): void;
  child(routeOptions: RouteOptions): Store;
}
interface RouteOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  cache?: number;
  routeInfo: { method: string; url: string };
}
interface GlobalParams {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
}

// The library's stores are CommonJS constructors without types of their own.
const load = createRequire(__filename);
const RedisStore = load('@fastify/rate-limit/store/RedisStore') as new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key: string) => Store;
const LocalStore = load('@fastify/rate-limit/store/LocalStore') as new (continueExceeding: boolean, exponentialBackoff: boolean, cache?: number) => Store;

export interface FallbackEvents {
  /** Called when the store changes where it counts: 'memory' at the first request Redis cannot take, 'redis' back. */
  onSwitch?(to: 'redis' | 'memory', err?: Error): void;
}

class FallbackStore implements Store {
  private where: 'redis' | 'memory' = 'redis';
  constructor(
    private readonly redis: Redis,
    private readonly shared: Store,
    private readonly local: Store,
    private readonly events: FallbackEvents,
  ) {}

  private switchTo(to: 'redis' | 'memory', err?: Error) {
    if (this.where === to) return;
    this.where = to;
    this.events.onSwitch?.(to, err);
  }

  private run(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number) {
    if (this.redis.status !== 'ready') {
      this.switchTo('memory', new Error(`redis ${this.redis.status}`));
      this.local[method](key, cb, timeWindow, max);
      return;
    }
    this.shared[method](
      key,
      (err, res) => {
        if (!err) {
          this.switchTo('redis');
          return cb(null, res);
        }
        // The connection dropped under this very request (ready a moment ago): memory answers it.
        this.switchTo('memory', err);
        this.local[method](key, cb, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  incr(key: string, cb: Callback, timeWindow: number, max: number) {
    this.run('incr', key, cb, timeWindow, max);
  }

  read(key: string, cb: Callback, timeWindow: number, max: number) {
    this.run('read', key, cb, timeWindow, max);
  }

  child(routeOptions: RouteOptions): Store {
    return new FallbackStore(this.redis, this.shared.child(routeOptions), this.local.child(routeOptions), this.events);
  }
}

/**
 * The `store` option of @fastify/rate-limit (a class it instantiates with its parameters): Redis's count while
 * `redis` is ready, this process's memory otherwise. `nameSpace`: the keys' prefix in Redis.
 */
export function redisOrMemoryStore(redis: Redis, nameSpace: string, events: FallbackEvents = {}): new (params: GlobalParams) => Store {
  return class implements Store {
    private readonly inner: Store;
    constructor(params: GlobalParams) {
      const continueExceeding = params.continueExceeding ?? false;
      const exponentialBackoff = params.exponentialBackoff ?? false;
      this.inner = new FallbackStore(redis, new RedisStore(continueExceeding, exponentialBackoff, redis, nameSpace), new LocalStore(continueExceeding, exponentialBackoff), events);
    }
    incr(key: string, cb: Callback, timeWindow: number, max: number) {
      this.inner.incr(key, cb, timeWindow, max);
    }
    read(key: string, cb: Callback, timeWindow: number, max: number) {
      this.inner.read(key, cb, timeWindow, max);
    }
    child(routeOptions: RouteOptions): Store {
      return this.inner.child(routeOptions);
    }
  };
}
