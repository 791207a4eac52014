import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Socket } from 'socket.io';

/**
 * The socket limits (docs/chat.md "Abuse limits"). A WebSocket upgrade never passes Fastify's hooks, so the global
 * per-address rate limit does not see it: the upgrade handler counts open sockets per client address itself, and
 * each socket gets a budget of frames.
 */

/**
 * The client address of a raw request as Fastify's `request.ip` reads it under the same TRUST_PROXY: the peer, or
 * the nearest X-Forwarded-For hop that a trusted proxy reported. Same rules as fastify/lib/request.js (a bare hop
 * count trusts nobody: it cannot check the immediate peer).
 */
export function clientAddressOf(trustProxy: boolean | number | string): (req: IncomingMessage) => string {
  if (!trustProxy || typeof trustProxy === 'number') return (req) => req.socket.remoteAddress ?? '';
  const trust = trustProxy === true ? () => true : proxyAddr.compile(trustProxy.split(',').map((v) => v.trim()));
  return (req) => {
    const all = proxyAddr.all(req, trust);
    return all[all.length - 1] ?? req.socket.remoteAddress ?? '';
  };
}

/**
 * Open sockets per address in this process. `admit` counts one when the address is under the cap and answers
 * false otherwise; `release` is called once when that connection's TCP socket closes. Per process: with WORKERS=n
 * the primary spreads one address's connections over the workers, so it holds at most n x the cap.
 */
export function connectionCounter(maxPerAddress: number) {
  const open = new Map<string, number>();
  return {
    admit(address: string): boolean {
      const n = open.get(address) ?? 0;
      if (n >= maxPerAddress) return false;
      open.set(address, n + 1);
      return true;
    },
    release(address: string): void {
      const n = (open.get(address) ?? 1) - 1;
      if (n <= 0) open.delete(address);
      else open.set(address, n);
    },
    count: (address: string) => open.get(address) ?? 0,
  };
}

const WINDOW_MS = 60_000;

/**
 * A socket may send `perMinute` frames a minute (fixed windows from its connect). Clients send one `join` per
 * (re)connect, so a real one never comes near; past the budget the frame's ack says REQUEST_LIMIT and the socket
 * is dropped, as it is not a client of ours.
 */
export function eventBudget(socket: Socket, perMinute: number, now: () => number = Date.now): void {
  let windowStart = now();
  let used = 0;
  socket.use((packet, next) => {
    const at = now();
    if (at - windowStart >= WINDOW_MS) {
      windowStart = at;
      used = 0;
    }
    used += 1;
    if (used <= perMinute) return next();
    const ack = packet[packet.length - 1];
    if (typeof ack === 'function') (ack as (a: unknown) => void)({ ok: false, message: 'REQUEST_LIMIT' });
    socket.disconnect(true);
  });
}
