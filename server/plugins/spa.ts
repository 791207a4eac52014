import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Paths that belong to the server, never to the SPA: an unknown one is a 404, not index.html. */
export const SERVER_PREFIXES = ['/api', '/healthz', '/readyz', '/metrics', '/demo', '/sim', '/socket.io', '/media'] as const;

/** Game logos and backgrounds the catalogue points at (public/games, served as /games/...). */
export const GAMES_IMAGE_DIR = path.resolve(__dirname, '..', '..', 'public', 'games');

/** Operator media (the how-to videos, posters and captions): public/media, served as /media/... */
export const MEDIA_DIR = path.resolve(__dirname, '..', '..', 'public', 'media');

export function isServerPath(url: string): boolean {
  const p = url.split('?')[0];
  return SERVER_PREFIXES.some((prefix) => p === prefix || p.startsWith(`${prefix}/`));
}

/** Source maps (and their compressed siblings) stay in dist/ for error tracking but are never published. */
export function isSourceMap(pathName: string): boolean {
  let p = pathName;
  try {
    p = decodeURIComponent(pathName);
  } catch {
    // a malformed escape is no file name either way
  }
  return /\.map(?:\.(?:gz|br))?$/i.test(p.split('?')[0]);
}

/** dist/sw.js, or its pre-compressed sibling. */
export function isServiceWorkerFile(distDir: string, filePath: string): boolean {
  return filePath.replace(/\.(?:gz|br)$/, '') === path.join(distDir, 'sw.js');
}

const NOT_BUILT = 'The web app is not built yet. Run `npm run build` (npm start builds it automatically), then reload.\n';
const STAFF_NOT_BUILT = 'The staff console is not built yet. Run `npm run build` (npm start builds it automatically), then reload.\n';

/** /staff and everything under it is the staff console (dist/staff.html, its own bundle), never the player SPA. */
export function isStaffPath(url: string): boolean {
  const p = url.split('?')[0];
  return p === '/staff' || p.startsWith('/staff/');
}

/**
 * Serves the built SPA from config.distDir and answers everything no route claimed:
 * - /api/* and the other server paths: 404 `{ message: "NO_DATA" }`, always JSON;
 * - a GET/HEAD navigation that accepts text/html: index.html (history-mode routing), or staff.html under
 *   /staff, or 503 text when that page is not built;
 * - anything else (a missing asset): 404 JSON.
 * Hashed files under /assets/ are immutable for a year; index.html and other unhashed files are revalidated
 * on every use. Pre-compressed .br/.gz siblings are sent when the browser accepts them. Source maps are 404.
 */
export default fp(
  async (app) => {
    const distDir = app.config.distDir;
    const assetsDir = path.join(distDir, 'assets') + path.sep;

    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      preCompressed: true,
      cacheControl: false,
      index: ['index.html'],
      allowedPath: (pathName) => !isSourceMap(pathName),
      setHeaders(reply, filePath) {
        reply.header('Cache-Control', filePath.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The service worker (docs/client.md "Installable app") controls the whole site from /sw.js.
        if (isServiceWorkerFile(distDir, filePath)) reply.header('Service-Worker-Allowed', '/');
      },
    });
    await app.register(fastifyStatic, {
      root: GAMES_IMAGE_DIR,
      prefix: '/games/',
      decorateReply: false,
      wildcard: true,
      cacheControl: false,
      setHeaders(reply) {
        reply.header('Cache-Control', 'public, max-age=86400');
      },
    });
    // Videos are fetched in ranges (seeking, preload=metadata); @fastify/static answers Range with 206.
    // /media is a server prefix, so a missing file is a JSON 404, never index.html.
    await app.register(fastifyStatic, {
      root: MEDIA_DIR,
      prefix: '/media/',
      decorateReply: false,
      wildcard: true,
      cacheControl: false,
      setHeaders(reply) {
        reply.header('Cache-Control', 'public, max-age=86400');
      },
    });

    const indexFile = path.join(distDir, 'index.html');
    const staffFile = path.join(distDir, 'staff.html');
    const notFound = async (req: FastifyRequest, reply: FastifyReply) => {
      const wantsPage =
        (req.method === 'GET' || req.method === 'HEAD') && !isServerPath(req.url) && (req.headers.accept ?? '').includes('text/html');
      if (!wantsPage) return reply.status(404).send({ message: 'NO_DATA' });
      reply.header('Vary', 'Accept');
      const staff = isStaffPath(req.url);
      if (!fs.existsSync(staff ? staffFile : indexFile)) {
        return reply.status(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(staff ? STAFF_NOT_BUILT : NOT_BUILT);
      }
      return reply.status(200).sendFile(staff ? 'staff.html' : 'index.html');
    };
    // Unknown URLs count against the global rate limit too, so probing them is no way around it.
    const preHandler = app.hasDecorator('rateLimit') ? app.rateLimit() : undefined;
    app.setNotFoundHandler(preHandler ? { preHandler } : {}, notFound);
  },
  { name: 'spa', dependencies: ['db'] },
);
