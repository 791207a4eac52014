import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DEFAULT_RULES } from '../plugins/accounts/rules';
import { lookups, type LookupContext } from '../plugins/lookups/lookups-service';
import { ROOT } from '../lib/paths';
import { assetCache } from './spa-assets';
import type { BootData } from '../../shared/prerender';
import { cookieLanguage, prerenderCache, withPrerenderedScreen } from './spa-prerender';

/** Paths that belong to the server, never to the SPA: an unknown one is a 404, not index.html. */
export const SERVER_PREFIXES = ['/api', '/healthz', '/readyz', '/metrics', '/demo', '/sim', '/socket.io', '/media'] as const;

/** Game logos and backgrounds the catalogue points at (public/games, served as /games/...). */
export const GAMES_IMAGE_DIR = path.join(ROOT, 'public', 'games');

/** Operator media (the how-to videos, posters and captions): public/media, served as /media/... */
export const MEDIA_DIR = path.join(ROOT, 'public', 'media');

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

async function bootData(app: FastifyInstance): Promise<BootData> {
  const context: LookupContext = {
    db: app.db,
    config: app.config,
    now: app.clock.now(),
    passwordMinLength: (app.hasDecorator('accountRules') ? app.accountRules : DEFAULT_RULES).passwordMinLength,
  };
  const [info, chat, active] = await Promise.allSettled([lookups.info(context), lookups.enableChatWidget(context), lookups.active(context)]);
  return {
    ...(info.status === 'fulfilled' ? { info: info.value } : {}),
    ...(chat.status === 'fulfilled' ? { chat: chat.value } : {}),
    ...(active.status === 'fulfilled' ? { active: active.value } : {}),
  };
}

/**
 * `page` with `data` as `<meta name="boot-data" content="<JSON>">` before `</head>` (or at the end when there is
 * no head). An attribute, HTML-escaped: nothing in it can end the element or run, and it is no text of the page.
 */
export function withBootData(page: string, data: BootData): string {
  const json = JSON.stringify(data).replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]!);
  const tag = `<meta name="boot-data" content="${json}">`;
  const at = page.indexOf('</head>');
  return at < 0 ? page + tag : page.slice(0, at) + tag + page.slice(at);
}

/** index.html read once per build (its modification time), not on every navigation. */
function pageCache(file: string): () => string {
  let cached: { mtimeMs: number; text: string } | undefined;
  return () => {
    const { mtimeMs } = fs.statSync(file);
    if (!cached || cached.mtimeMs !== mtimeMs) cached = { mtimeMs, text: fs.readFileSync(file, 'utf8') };
    return cached.text;
  };
}

const NOT_BUILT = 'The web app is not built yet. Run `npm run build` (npm start builds it automatically), then reload.\n';
const STAFF_NOT_BUILT = 'The staff console is not built yet. Run `npm run build` (npm start builds it automatically), then reload.\n';

/** The player's home, the one page of the player's area that comes drawn (src/prerender/homeScreen.tsx). */
const HOME_PATH = '/user/home';

/** /user and everything under it: the player's area. */
export function isUserAreaPath(pathname: string): boolean {
  return pathname === '/user' || pathname.startsWith('/user/');
}

/** /staff and everything under it is the staff console (dist/staff.html, its own bundle), never the player SPA. */
export function isStaffPath(url: string): boolean {
  const p = url.split('?')[0];
  return p === '/staff' || p.startsWith('/staff/');
}

/**
 * Serves the built SPA from config.distDir and answers everything no route claimed:
 * - /api/* and the other server paths: 404 `{ message: "NO_DATA" }`, always JSON;
 * - a GET/HEAD navigation that accepts text/html, and '/': index.html with the boot data (history-mode routing;
 *   `withBootData`), or staff.html under /staff, or 503 text when that page is not built;
 * - anything else (a missing asset): 404 JSON.
 * Hashed files under /assets/ are immutable for a year and answered from memory (spa-assets.ts); index.html and
 * other unhashed files are revalidated on every use. Pre-compressed .br/.gz siblings are sent when the browser
 * accepts them. Source maps are 404.
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
      // No directory index: '/' reaches the not-found handler like any page, so it gets the boot data too.
      index: false,
      // The prerendered screens are index.html's parts, not files of the site.
      allowedPath: (pathName) => !isSourceMap(pathName) && !pathName.startsWith('/prerender/'),
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
    const indexPage = pageCache(indexFile);
    const userFile = path.join(distDir, 'prerender', 'user.html');
    const userPage = pageCache(userFile);
    // The prerendered screens: each page's file and its variants; the home only for a browser holding a session.
    const drawnPage = (name: string, options: { needsSession?: boolean } = {}) => ({
      page: pageCache(path.join(distDir, 'prerender', `${name}.html`)),
      screens: prerenderCache(path.join(distDir, 'prerender', `${name}.json`)),
      options,
    });
    const login = drawnPage('login');
    const home = drawnPage('home', { needsSession: true });
    const notFound = async (req: FastifyRequest, reply: FastifyReply) => {
      const wantsPage =
        (req.method === 'GET' || req.method === 'HEAD') && !isServerPath(req.url) && (req.headers.accept ?? '').includes('text/html');
      if (!wantsPage) return reply.status(404).send({ message: 'NO_DATA' });
      reply.header('Vary', 'Accept');
      const staff = isStaffPath(req.url);
      if (!fs.existsSync(staff ? staffFile : indexFile)) {
        return reply.status(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(staff ? STAFF_NOT_BUILT : NOT_BUILT);
      }
      if (staff) return reply.status(200).sendFile('staff.html');
      return sendIndex(req, reply);
    };
    const sendIndex = async (req: FastifyRequest, reply: FastifyReply) => {
      const boot = await bootData(app);
      const pathname = req.url.split('?')[0];
      // The player's area: index.html without the login's preloads (webpack.config.ts PreloadFirstScreen), when built.
      let page = isUserAreaPath(pathname) && fs.existsSync(userFile) ? userPage() : indexPage();
      // /login and the player's home come drawn (spa-prerender.ts); the page differs by the language cookie.
      const drawn = pathname === '/login' ? login : pathname === HOME_PATH ? home : undefined;
      if (drawn) {
        page = withPrerenderedScreen(page, drawn.page, drawn.screens(), boot, cookieLanguage(req.headers.cookie), drawn.options);
        reply.header('Vary', 'Accept, Cookie');
      }
      return reply.status(200).header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').send(withBootData(page, boot));
    };
    // The hashed build files from memory (spa-assets.ts); anything that is not one of them ends as before.
    const assets = assetCache(assetsDir, notFound, (reply, name) => reply.sendFile(path.join('assets', name)));
    app.get('/assets/*', assets.handler);
    // '/' is the app's page whatever the request accepts, as when the static plugin served it as the directory index.
    app.get('/', async (req, reply) => {
      if (!fs.existsSync(indexFile)) return reply.status(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send(NOT_BUILT);
      return sendIndex(req, reply);
    });
    // Unknown URLs count against the global rate limit too, so probing them is no way around it.
    const preHandler = app.hasDecorator('rateLimit') ? app.rateLimit() : undefined;
    app.setNotFoundHandler(preHandler ? { preHandler } : {}, notFound);
  },
  { name: 'spa', dependencies: ['db'] },
);
