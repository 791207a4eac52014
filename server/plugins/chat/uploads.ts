import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError, badRequest, notFound, tooMany } from '../../errors';
import { MAX_HEADER_BYTES, headerProblem, readImageHeader } from '../../lib/image-header';
import { readUploadLimits, type UploadLimits } from '../../settings/upload-limits';
import { chargeUpload, hasDiskRoom, settleUpload, subjectsOf } from '../../db/upload-quota';
import { chatMediaDir } from '../../lib/upload-dirs';
import { allowedExtensionOf, extensionAgrees, sniffMedia, SNIFF_BYTES, type SniffedType, type UploadKind } from './media-type';
import { findUpload, insertUpload, type Customer } from './repository';
import type { IdentityFields } from './service';

/**
 * Chat uploads (docs/chat.md "Uploads"): multipart field `file` (text fields userId/guestId before it), at most
 * 10 MB for an image and 20 MB for a video, streamed to DATA_DIR/chat-media (outside dist and public) under 128
 * random bits; kept only when the first bytes are an allowed type of the route's kind and the file name's
 * extension agrees; an image also only when its header's size is one a staff browser can show. Every upload is charged
 * to its budgets first (the player's, or the guest's and the client address's: server/db/upload-quota.ts), and
 * refused while DATA_DIR is short of disk. Served back by GET /api/chat/media/{name} with the stored type and nosniff.
 */
export const UPLOAD_CAPS: Record<UploadKind, number> = { image: 10 * 1024 * 1024, video: 20 * 1024 * 1024 };
/** Room for the multipart framing and the two text fields around the file. */
const FRAMING_ALLOWANCE = 64 * 1024;

const notSupported = () => badRequest('CHAT_FILE_NOT_SUPPORTED');
const tooLarge = () => new AppError(413, 'CHAT_FILE_TOO_LARGE');

class Refused extends Error {
  constructor(readonly error: AppError) {
    super(error.code);
  }
}

export interface UploadDeps {
  db: Kysely<DB>;
  dataDir: string;
  now(): Date;
  customerOf(playerId: number | null, fields: IdentityFields): Promise<Customer>;
}

/** Reads the multipart body of an upload route and stores its file; answers the file's URL. */
export async function receiveUpload(deps: UploadDeps, req: FastifyRequest, kind: UploadKind): Promise<{ path: string }> {
  const cap = UPLOAD_CAPS[kind];
  // The route's own body limit: a body announced larger than the cap is refused before a byte is read.
  const length = Number(req.headers['content-length']);
  if (Number.isFinite(length) && length > cap + FRAMING_ALLOWANCE) throw tooLarge();
  if (!req.isMultipart()) throw notSupported();
  const fields: IdentityFields = {};
  let stored: { path: string; size: number } | null = null;
  try {
    for await (const part of req.parts({ limits: { fileSize: cap, files: 1, fields: 4, fieldSize: 256, parts: 6 } })) {
      if (part.type === 'field') {
        if (part.fieldname === 'userId' || part.fieldname === 'guestId') fields[part.fieldname] = typeof part.value === 'string' ? part.value : null;
        continue;
      }
      if (part.fieldname !== 'file' || stored) {
        part.file.resume();
        continue;
      }
      const customer = await deps.customerOf(req.playerId || null, fields);
      const ext = allowedExtensionOf(part.filename);
      if (!ext) throw notSupported();
      const limits = await readUploadLimits(deps.db);
      if (!(await hasDiskRoom(deps.dataDir, limits.minFreeDiskMb))) throw new AppError(503, 'UPLOAD_UNAVAILABLE');
      // The most this upload can keep: the cap, or less when the body announced its length.
      const reserve = Number.isFinite(length) && length > 0 ? Math.min(length, cap) : cap;
      const charge = await chargeUpload(deps.db, limits, subjectsOf({ ...customer, address: req.ip }), reserve, deps.now());
      if (!charge) throw tooMany('REQUEST_LIMIT');
      let kept = 0;
      try {
        stored = await store(deps, part.file, kind, ext, customer, limits);
        kept = stored.size;
      } finally {
        await settleUpload(deps.db, charge, kept);
      }
    }
  } catch (e) {
    if (e instanceof AppError) throw e;
    const code = (e as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
    // Anything else is the client's multipart (no boundary, too many parts, a truncated body), never our fault.
    throw notSupported();
  }
  if (!stored) throw notSupported();
  return { path: stored.path };
}

async function store(deps: UploadDeps, file: Readable & { truncated?: boolean }, kind: UploadKind, ext: string, c: Customer, limits: UploadLimits): Promise<{ path: string; size: number }> {
  const dir = chatMediaDir(deps.dataDir);
  await fs.promises.mkdir(dir, { recursive: true, mode: 0o700 });
  const id = crypto.randomBytes(16).toString('hex');
  const partial = path.join(dir, `${id}.part`);
  let head = Buffer.alloc(0);
  let type: SniffedType | null = null;
  /** An image's header has been read and is within the limits (videos: not looked at). */
  let sized = kind !== 'image';
  let size = 0;
  const check = (final: boolean): void => {
    if (!type) {
      if (head.length < SNIFF_BYTES && !final) return;
      type = sniffMedia(head);
      if (!type || type.kind !== kind || !extensionAgrees(ext, type)) throw new Refused(notSupported());
    }
    if (sized) return;
    // Its pixel size from the header (a 60000 x 60000 PNG is a few KB and freezes the staff browser that shows it).
    const h = readImageHeader(head);
    if (h === 'more' && !final && head.length < MAX_HEADER_BYTES) return;
    if (h === null || h === 'more') throw new Refused(notSupported());
    if (headerProblem(h, { maxPixels: limits.chatImageMaxPixels, maxSide: limits.chatImageMaxSide })) throw new Refused(tooLarge());
    sized = true;
    head = Buffer.alloc(0);
  };
  // The type and an image's size are decided from the first bytes, so a disguised or oversized file is refused
  // before the rest is written.
  const sniff = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      try {
        if (!type || !sized) {
          head = Buffer.concat([head, chunk]);
          check(false);
        }
        done(null, chunk);
      } catch (e) {
        done(e as Error);
      }
    },
    flush(done) {
      try {
        if (!type || !sized) check(true);
        done();
      } catch (e) {
        done(e as Error);
      }
    },
  });
  // Opened before the stream starts, so the file exists (and is removed below) whenever the copy fails.
  const handle = await fs.promises.open(partial, 'wx', 0o600);
  try {
    await pipeline(file, sniff, fs.createWriteStream('', { fd: handle }));
    if (file.truncated) throw new Refused(tooLarge());
    if (size === 0 || !type) throw new Refused(notSupported());
  } catch (e) {
    await fs.promises.rm(partial, { force: true });
    file.resume();
    if (e instanceof Refused) throw e.error;
    throw e;
  }
  const t = type as SniffedType;
  const name = `${id}.${t.ext}`;
  await fs.promises.rename(partial, path.join(dir, name));
  await insertUpload(deps.db, {
    id,
    ext: t.ext,
    player_id: c.playerId,
    guest_id: c.guestId,
    kind: t.kind,
    content_type: t.contentType,
    size,
    created_at: deps.now().toISOString(),
  });
  return { path: `/api/chat/media/${name}`, size };
}

const MEDIA_NAME = /^([0-9a-f]{32})\.(png|jpg|gif|mp4|mov)$/;

/**
 * GET /api/chat/media/{name}: a capability URL (128 random bits), so no token is needed (an <img> or <video> sends
 * none). The stored type with nosniff and a sandbox CSP; single byte ranges for video seeking.
 */
export async function serveMedia(deps: Pick<UploadDeps, 'db' | 'dataDir'>, name: string, range: string | undefined, reply: FastifyReply) {
  const m = MEDIA_NAME.exec(name);
  const row = m ? await findUpload(deps.db, m[1]) : undefined;
  if (!m || !row || row.ext !== m[2]) throw notFound('NO_DATA');
  const file = path.join(chatMediaDir(deps.dataDir), `${row.id}.${row.ext}`);
  const stat = await fs.promises.stat(file).catch(() => null);
  if (!stat?.isFile()) throw notFound('NO_DATA');
  const size = stat.size;
  const r = range ? parseRange(range, size) : null;
  if (r === 'unsatisfiable') return reply.status(416).header('content-range', `bytes */${size}`).send({ message: 'NO_DATA' });
  reply
    .header('content-type', row.content_type)
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header('cache-control', 'private, max-age=31536000, immutable')
    .header('accept-ranges', 'bytes');
  if (r) {
    reply.status(206).header('content-range', `bytes ${r.start}-${r.end}/${size}`).header('content-length', r.end - r.start + 1);
    return reply.send(fs.createReadStream(file, { start: r.start, end: r.end }));
  }
  reply.header('content-length', size);
  return reply.send(fs.createReadStream(file));
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; null (send everything) for anything else, as RFC 9110 allows. */
export function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const n = Number(m[2]);
    if (n === 0) return 'unsatisfiable';
    start = Math.max(0, size - n);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== '' && Number(m[2]) < start) return null;
  }
  if (start >= size || size === 0) return 'unsatisfiable';
  return { start, end };
}
