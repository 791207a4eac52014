import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { io as connect, type Socket } from 'socket.io-client';
import { insertPlayer } from './ledger';

/** Helpers of the chat suites: callers (a player's token or a guest id), JSON calls, multipart bodies, sockets. */

export interface Caller {
  /** Authorization header value, when the caller is a player. */
  auth?: string;
  playerId?: number;
  guestId?: string;
}

export async function newPlayer(app: FastifyInstance): Promise<Caller & { playerId: number; auth: string }> {
  const playerId = await insertPlayer(app.db);
  return { playerId, auth: `Bearer ${await app.tokens.issue(playerId)}` };
}

/**
 * Each test guest writes from an address of its own (derived from its id), and each new id is asked for from a fresh
 * one, so suites about other rules never meet the per-address guest limits (docs/chat.md "Guests");
 * guest-limits.test.ts sends its own X-Forwarded-For to test those.
 */
export function guestAddress(guestId: string): string {
  const h = crypto.createHash('sha256').update(guestId).digest();
  return `10.${h[0]}.${h[1]}.${(h[2] % 254) + 1}`;
}
const freshAddress = () => `10.${crypto.randomInt(256)}.${crypto.randomInt(256)}.${crypto.randomInt(1, 255)}`;

export async function newGuest(app: FastifyInstance): Promise<Caller & { guestId: string }> {
  const res = await app.inject({ method: 'POST', url: '/api/chat/guest', headers: { 'x-forwarded-for': freshAddress() } });
  if (res.statusCode !== 200) throw new Error(`guest id: ${res.statusCode} ${res.body}`);
  return { guestId: (res.json() as { guestId: string }).guestId };
}

/** A JSON call as the SPA makes it: the token in the header, the guest id in the body. */
export function call(app: FastifyInstance, method: 'POST' | 'PUT' | 'GET', url: string, who: Caller, body: Record<string, unknown> = {}) {
  const headers: Record<string, string> = {};
  if (who.auth) headers.authorization = who.auth;
  else if (who.guestId) headers['x-forwarded-for'] = guestAddress(who.guestId);
  const payload = method === 'GET' ? undefined : { ...(who.guestId ? { guestId: who.guestId } : {}), ...body };
  return app.inject({ method, url, headers, payload });
}

export const sendText = (app: FastifyInstance, who: Caller, message: string, extra: Record<string, unknown> = {}) =>
  call(app, 'POST', '/api/chat/send-message', who, { message, message_type: 'text', ...extra });

export const history = (app: FastifyInstance, who: Caller, body: Record<string, unknown> = {}) => call(app, 'POST', '/api/chat/history', who, body);

/** A multipart body: text fields first, then the file (field `file`). */
export function multipartBody(file: { name: string; bytes: Buffer; type?: string } | null, fields: Record<string, string> = {}) {
  const boundary = `----chat${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function upload(app: FastifyInstance, kind: 'image' | 'video', who: Caller, file: { name: string; bytes: Buffer } | null) {
  const { payload, contentType } = multipartBody(file, who.guestId ? { guestId: who.guestId } : {});
  const headers: Record<string, string> = { 'content-type': contentType };
  if (who.auth) headers.authorization = who.auth;
  else if (who.guestId) headers['x-forwarded-for'] = guestAddress(who.guestId);
  return app.inject({ method: 'POST', url: `/api/chat/upload-${kind}`, headers, payload });
}

/** A PNG's signature and IHDR (8-bit RGBA, width x height), as the chat's header check reads it. */
export function pngHead(width: number, height: number, interlace = 0): Buffer {
  const ihdr = Buffer.alloc(25);
  ihdr.writeUInt32BE(13, 0);
  ihdr.write('IHDR', 4, 'latin1');
  ihdr.writeUInt32BE(width, 8);
  ihdr.writeUInt32BE(height, 12);
  ihdr.set([8, 6, 0, 0, interlace], 16);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), ihdr]);
}

/** A JPEG's start, an APP0 segment, then a baseline SOF0 of width x height. */
export function jpegHead(width: number, height: number): Buffer {
  const sof = Buffer.from([0xff, 0xc0, 0, 11, 8, 0, 0, 0, 0, 1, 1, 0x11, 0]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), Buffer.from('JFIF\0', 'latin1'), Buffer.alloc(9, 1), sof]);
}

/** A GIF's signature and logical screen of width x height. */
export function gifHead(width: number, height: number): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), screen]);
}

/** Small real files of each type (valid signatures and image headers; the rest is filler). */
export const FILES = {
  png: Buffer.concat([pngHead(64, 48), Buffer.alloc(200, 1)]),
  jpeg: Buffer.concat([jpegHead(64, 48), Buffer.alloc(200, 2)]),
  gif: Buffer.concat([gifHead(64, 48), Buffer.alloc(200, 3)]),
  mp4: Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from('ftypisom', 'latin1'), Buffer.alloc(1000, 4)]),
  mov: Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypqt  ', 'latin1'), Buffer.alloc(1000, 5)]),
  html: Buffer.from('<!doctype html><script>alert(document.cookie)</script>'),
};

/** Listens on a free local port; answers the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** A websocket-only socket.io client (as the SPA connects), without automatic reconnection. */
export function socketTo(url: string, auth: Record<string, string>, namespace = '/'): Socket {
  return connect(`${url}${namespace === '/' ? '' : namespace}`, { transports: ['websocket'], reconnection: false, auth, forceNew: true });
}

export function connected(socket: Socket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', (err) => reject(err));
  });
}

/** The connect_error's message (UNAUTHORIZED, invalid-token...); fails if the socket connects. */
export function refused(socket: Socket): Promise<string> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected')));
    socket.once('connect_error', (err) => resolve(err.message));
  });
}

export function join(socket: Socket, room: string): Promise<{ ok: boolean; message?: string }> {
  return socket.timeout(5000).emitWithAck('join', { room });
}

/** Resolves with the next `event` whose data satisfies `match`. */
export function next<T = unknown>(socket: Socket, event: string, match: (data: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve) => {
    const on = (data: T) => {
      if (!match(data)) return;
      socket.off(event, on);
      resolve(data);
    };
    socket.on(event, on);
  });
}

/** Collects every `event` a socket receives, in order. */
export function record<T = unknown>(socket: Socket, event: string): T[] {
  const seen: T[] = [];
  socket.on(event, (d: T) => seen.push(d));
  return seen;
}
