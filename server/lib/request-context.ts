import crypto from 'node:crypto';
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The request a piece of work runs for, wherever it runs: services and adapters called by a route see the
 * route's request id without it being passed down every call (docs/operations.md "Request ids").
 * Set by app.ts for every HTTP request; background work (reconciler, poller) runs outside any request.
 */
export interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs fn inside the request's context (app.ts: the onRequest and preValidation hooks). */
export function runWithRequest<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

/** The id of the HTTP request this code runs for, or undefined in background work. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/**
 * Headers an adapter that calls an outside service over HTTP adds to its request, so the provider's logs
 * and ours can be matched: `X-Request-Id` when the call is made for a request, nothing otherwise.
 */
export function outboundHeaders(): Record<string, string> {
  const id = currentRequestId();
  return id ? { 'x-request-id': id } : {};
}

/** An incoming X-Request-Id is kept only when it is this plain (no spaces, quotes, control characters, not huge). */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** Fastify's genReqId: the caller's X-Request-Id when it looks safe (a proxy or a client's trace), else a new UUID. */
export function requestIdOf(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}
