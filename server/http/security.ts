import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import rateLimit, { type RateLimitPluginOptions } from '@fastify/rate-limit';
import { tooMany } from '../errors';
import { redisOrMemoryStore } from './rate-limit-store';

/**
 * Security headers and the global per-address rate limit.
 *
 * CSP: the SPA loads only its own scripts, styles, fonts and images (plus data: images such as the LINE QR
 * and blob: previews of chat uploads) and talks to its own origin over HTTP and WebSocket. Inline styles are
 * allowed because notistack injects a <style> element and server HTML (contact text, bonus notices) carries
 * style attributes; inline scripts are not. Pages the server renders itself (the demo bank, the game
 * simulator) must load their scripts from files too.
 *
 * Rate limit: config.rateLimitPerMinute per client address across all routes, counted in Redis when
 * REDIS_URL is set (so several processes share one budget) and in memory otherwise; while Redis is down each
 * process counts in its own memory (rate-limit-store.ts). Routes with tighter
 * rules (OTP, login) set their own `config.rateLimit` or key on the phone/player in their service.
 * The SPA's built files under /assets/ are not counted: the service worker fetches about 70 of them at once on a
 * first visit or a new version, and players behind one carrier address (CGNAT) would share that cost. Only names
 * that exist in the build are free; an unknown /assets/ URL counts like any other.
 *
 * Headers: helmet's, computed once at start (`securityHeaders`) and set on every reply by one hook. @fastify/helmet
 * rebuilt helmet's middleware, parsing every CSP directive again, on each request (issue 13's profile); the headers
 * are the same for every answer here (no nonces, no per-route policy), so there is nothing to rebuild.
 */
export interface SecurityOptions {
  /**
   * Origins the SPA may load images from besides its own: a payment gateway that answers a QR only as an image on
   * its own host (PAYMENT_GATEWAY=opn, docs/providers/opn.md). app.ts asks the payments adapters which.
   */
  imageOrigins?: readonly string[];
  /**
   * Requests the per-address rate limit lets through besides the built assets: the seamless aggregator's Wallet API
   * calls from its published addresses (SEAMLESS_AGGREGATOR_ADDRESSES, docs/seamless-wallet.md), which carry every
   * player's bets from a few servers. app.ts asks the seamless settings which.
   */
  rateLimitExempt?: (req: FastifyRequest) => boolean;
}

export default fp<SecurityOptions>(
  async (app, opts) => {
    const { config } = app;
    const selfOnlyFrames = config.frameAncestors.length === 1 && config.frameAncestors[0] === "'self'";
    const policy = (frameAncestors: string[]): HelmetOptions['contentSecurityPolicy'] => ({
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        fontSrc: ["'self'", 'data:'],
        imgSrc: ["'self'", 'data:', 'blob:', ...(opts.imageOrigins ?? [])],
        mediaSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'", 'ws:', 'wss:'],
        workerSrc: ["'self'", 'blob:'],
        manifestSrc: ["'self'"],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors,
      },
    });
    const headers = securityHeaders({
      contentSecurityPolicy: policy(config.frameAncestors),
      // X-Frame-Options cannot name other origins: leave framing to CSP frame-ancestors when a host app embeds us.
      frameguard: selfOnlyFrames ? { action: 'sameorigin' } : false,
      crossOriginEmbedderPolicy: false,
    });
    // The staff console is never embedded: FRAME_ANCESTORS is for the player's mobile build, and a framed console
    // could be clickjacked into approving a payment (issue 39).
    const staffHeaders = securityHeaders({
      contentSecurityPolicy: policy(["'none'"]),
      frameguard: { action: 'deny' },
      crossOriginEmbedderPolicy: false,
    });
    app.addHook('onRequest', (req, reply, done) => {
      reply.headers(req.url.startsWith('/api/') ? API_HEADERS : isStaffPage(req.url) ? staffHeaders : headers);
      done();
    });

    if (config.rateLimitPerMinute === 0) return;
    const options: RateLimitPluginOptions = {
      global: true,
      max: config.rateLimitPerMinute,
      timeWindow: 60_000,
      keyGenerator: (req) => req.ip,
      allowList: exemptOf(builtAssetRequest(config.distDir), opts.rateLimitExempt),
      errorResponseBuilder: () => tooMany('REQUEST_LIMIT'),
      nameSpace: 'wallet-rl:',
    };
    if (config.redisUrl) {
      // Loaded only when configured, so a single-process install needs no Redis client.
      const { default: Redis } = await import('ioredis');
      // No offline queue: a count Redis cannot take now is counted in memory at once (rate-limit-store.ts), never
      // queued behind the reconnect attempts.
      const redis = new Redis(config.redisUrl, { connectTimeout: 500, maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: false });
      redis.on('error', (err) => app.log.debug({ err: err.message }, 'rate-limit redis error'));
      app.addHook('onClose', async () => {
        await redis.quit().catch(() => redis.disconnect());
      });
      // Without Redis each process counts in its own memory (docs/operations.md "Without Redis, and other faults").
      options.store = redisOrMemoryStore(redis, options.nameSpace as string, {
        onSwitch: (to, err) =>
          to === 'memory'
            ? app.log.warn({ err: err?.message }, 'rate limit: Redis unavailable, counting in this process until it is back')
            : app.log.info('rate limit: counting in Redis again'),
      }) as unknown as RateLimitPluginOptions['store'];
      // A failure of the store itself (none is expected: memory answers for Redis) lets the request through.
      options.skipOnError = true;
    }
    await app.register(rateLimit, options);
  },
  { name: 'security', dependencies: [] },
);

function exemptOf(assets: (req: FastifyRequest) => boolean, other?: (req: FastifyRequest) => boolean): (req: FastifyRequest) => boolean {
  return other ? (req) => assets(req) || other(req) : assets;
}

/** /staff, /staff/... and /staff?...: the console's pages (server/http/spa.ts serves them). */
export function isStaffPage(url: string): boolean {
  return url === '/staff' || url.startsWith('/staff/') || url.startsWith('/staff?') || url.startsWith('/staff#');
}

/**
 * The headers of every /api/ answer: JSON for a script of the page, or a file that sets its own stricter CSP (a slip,
 * a chat upload). The document headers (CSP directives for scripts, styles, fonts, workers; COOP, Origin-Agent-Cluster,
 * X-XSS-Protection, X-DNS-Prefetch-Control, X-Download-Options, X-Permitted-Cross-Domain-Policies) tell a browser how
 * to treat a page it renders, and an API answer is not one. What stays is what OWASP's REST cheat sheet names for APIs:
 * nothing may load or frame it as a page (`default-src 'none'; frame-ancestors 'none'`, X-Frame-Options DENY), no
 * sniffing, HTTPS only, no cross-origin embedding (CORP), no referrer. ~230 bytes instead of ~750 on each answer
 * (HTTP/1.1 sends them uncompressed, and the SPA polls), and seven headers fewer for Node to check and write
 * (issue 13, the read path).
 */
export const API_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
});

/** The headers helmet's middleware sets with `options`, by running it once against a response that records them. */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * True for a GET or HEAD of a file the SPA build put in dist/assets (read once, and again at most every 10 s when
 * a name is missing, so a build made after the start is seen).
 */
export function builtAssetRequest(distDir: string): (req: FastifyRequest) => boolean {
  const dir = path.join(distDir, 'assets');
  let names = new Set<string>();
  let readAt = -Infinity;
  const read = () => {
    readAt = Date.now();
    try {
      names = new Set(fs.readdirSync(dir).filter((n) => !n.endsWith('.map')));
    } catch {
      names = new Set();
    }
  };
  return (req) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const m = /^\/assets\/([^/?#]+)(?:[?#]|$)/.exec(req.url);
    if (!m) return false;
    if (names.has(m[1])) return true;
    if (Date.now() - readAt < 10_000) return false;
    read();
    return names.has(m[1]);
  };
}
