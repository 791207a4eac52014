import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The request a piece of work runs for, passed down explicitly (docs/operations.md "Request ids").
 *
 * It used to travel in an AsyncLocalStorage. On Node 20 that turns on async_hooks' promise hooks for the whole
 * process: every promise, in every request and background job, ran the hook's bookkeeping, about a tenth of the
 * server's CPU on a wallet -> game transfer and on the wallet read (issue 13, measured 2026-11-29). So the id goes
 * where it is used, as arguments:
 * - log lines: a service called for a request logs through the request's logger (`req.log`, whose lines carry
 *   `reqId`), handed to it in its dependencies (`scoped`, below) or as an argument;
 * - provider calls: every adapter method takes a last, optional `ProviderCall`, and a real adapter that calls its
 *   service over HTTP adds `outboundHeaders(call)` to its request;
 * - the staff audit log: `StaffAction.requestId`.
 * Background work (the reconciler, the pollers) has no request: its lines and calls carry no id.
 */
export interface ProviderCall {
  /** The id of the HTTP request the call is made for. */
  requestId: string;
}

/** What a service needs to know of the request it works for: its logger (lines with `reqId`) and its provider-call context. */
export interface RequestScope {
  log: FastifyBaseLogger;
  call: ProviderCall;
}

/** The provider-call context of a Fastify request. */
export function callOf(req: { id: string }): ProviderCall {
  return { requestId: req.id };
}

/** The scope of a Fastify request: `req.log` already carries the request id in its bindings. */
export function scopeOf(req: { id: string; log: FastifyBaseLogger }): RequestScope {
  return { log: req.log, call: callOf(req) };
}

/**
 * A service's dependencies for one request: the same object with the request's logger and provider-call context
 * in place of the process-wide ones (a shallow copy; the database, the adapters and the options are shared).
 */
export function scoped<D extends { log?: unknown; call?: ProviderCall }>(deps: D, req: { id: string; log: FastifyBaseLogger }): D {
  return { ...deps, log: req.log, call: callOf(req) };
}

/**
 * Headers an adapter that calls an outside service over HTTP adds to its request, so the provider's logs
 * and ours can be matched: `X-Request-Id` when the call is made for a request, nothing otherwise.
 */
export function outboundHeaders(call?: ProviderCall): Record<string, string> {
  return call?.requestId ? { 'x-request-id': call.requestId } : {};
}

/** An incoming X-Request-Id is kept only when it is this plain (no spaces, quotes, control characters, not huge). */
export const SAFE_REQUEST_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

/** Fastify's genReqId: the caller's X-Request-Id when it looks safe (a proxy or a client's trace), else a new UUID. */
export function requestIdOf(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : crypto.randomUUID();
}
