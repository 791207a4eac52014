import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The build's hashed files (dist/assets) answered from memory (docs/server.md "Static files").
 *
 * Their names carry their content hash, so a file never changes under its name: each one is read from disk once,
 * with its pre-compressed .br and .gz siblings, and every later request is answered with the bytes already in
 * memory. Through the static plugin each request cost a few file system calls on libuv's thread pool (stat of the
 * compressed sibling, stat, open, read, close): 4-13 ms a file on this machine kind, and more while the first
 * screen asks for its dozen files at once; Lighthouse's simulation adds the server's observed wait to every
 * request of the page it measures.
 *
 * Same answers as the static plugin gave: the encoding the browser prefers among br, gzip and none, `Vary:
 * Accept-Encoding`, immutable for a year, a weak ETag from size and modification time (If-None-Match answers 304).
 * No ranges: nothing fetches a script or font in parts. What is not a plain file name in that folder (a path, a
 * source map) or is missing goes to `notFound` as before; a file too big to hold is streamed by `fallback`.
 */

/** The largest file kept in memory, and the most memory all of them may take (the player app is ~3 MB). */
export const ASSET_LIMITS = { fileBytes: 4 * 1024 * 1024, totalBytes: 64 * 1024 * 1024 };

const TYPES: Record<string, string> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.json': 'application/json; charset=utf-8',
};

interface Asset {
  type: string;
  etag: string;
  lastModified: string;
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
}

type Encoding = 'br' | 'gzip' | 'identity';

/** A name the cache may serve: one path segment of safe characters, not hidden, not a source map. */
export function isAssetName(name: string): boolean {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(name) && !/\.map$/i.test(name) && !/\.(?:gz|br)$/i.test(name);
}

/** The encoding to send: br, then gzip, then none, among those the request accepts (q=0 refuses one). */
export function pickEncoding(acceptEncoding: string | undefined, asset: Pick<Asset, 'br' | 'gzip'>): Encoding {
  if (!acceptEncoding) return 'identity';
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [token, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) <= 0) continue;
    accepted.add(token.trim());
  }
  if (asset.br && (accepted.has('br') || accepted.has('*'))) return 'br';
  if (asset.gzip && (accepted.has('gzip') || accepted.has('*'))) return 'gzip';
  return 'identity';
}

async function readOptional(file: string): Promise<Buffer | undefined> {
  try {
    return await fs.readFile(file);
  } catch {
    return undefined;
  }
}

export interface AssetCache {
  handler(req: FastifyRequest<{ Params: { '*': string } }>, reply: FastifyReply): Promise<unknown>;
  /** Files held now (for tests and the bench). */
  size(): number;
}

export function assetCache(
  assetsDir: string,
  notFound: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  fallback: (reply: FastifyReply, name: string) => unknown,
  limits = ASSET_LIMITS,
): AssetCache {
  const held = new Map<string, Asset>();
  const loading = new Map<string, Promise<Asset | 'missing' | 'too-big'>>();
  let total = 0;

  async function load(name: string): Promise<Asset | 'missing' | 'too-big'> {
    const file = path.join(assetsDir, name);
    let stat;
    try {
      stat = await fs.stat(file);
    } catch {
      return 'missing';
    }
    if (!stat.isFile()) return 'missing';
    if (stat.size > limits.fileBytes || total + stat.size > limits.totalBytes) return 'too-big';
    const [identity, br, gzip] = await Promise.all([readOptional(file), readOptional(`${file}.br`), readOptional(`${file}.gz`)]);
    if (!identity) return 'missing';
    const asset: Asset = {
      type: TYPES[path.extname(name).toLowerCase()] ?? 'application/octet-stream',
      etag: `W/"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`,
      lastModified: stat.mtime.toUTCString(),
      identity,
      br,
      gzip,
    };
    const bytes = identity.length + (br?.length ?? 0) + (gzip?.length ?? 0);
    if (total + bytes > limits.totalBytes) return 'too-big';
    total += bytes;
    held.set(name, asset);
    return asset;
  }

  async function find(name: string): Promise<Asset | 'missing' | 'too-big'> {
    const asset = held.get(name);
    if (asset) return asset;
    let pending = loading.get(name);
    if (!pending) {
      pending = load(name).finally(() => loading.delete(name));
      loading.set(name, pending);
    }
    return pending;
  }

  return {
    size: () => held.size,
    async handler(req, reply) {
      const name = req.params['*'];
      if (!isAssetName(name)) return notFound(req, reply);
      const asset = await find(name);
      if (asset === 'missing') return notFound(req, reply);
      if (asset === 'too-big') return fallback(reply, name);
      reply
        .header('Cache-Control', 'public, max-age=31536000, immutable')
        .header('Vary', 'accept-encoding')
        .header('ETag', asset.etag)
        .header('Last-Modified', asset.lastModified)
        .type(asset.type);
      if (req.headers['if-none-match'] === asset.etag) return reply.status(304).send();
      const encoding = pickEncoding(req.headers['accept-encoding'], asset);
      if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
      return reply.status(200).send(encoding === 'identity' ? asset.identity : asset[encoding]);
    },
  };
}
