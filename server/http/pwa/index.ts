import fp from 'fastify-plugin';
import { readSetting } from '../../settings';
import { DEFAULT_APP_NAME, webManifest } from './manifest';

/**
 * The installable app's server side: GET /manifest.webmanifest with the operator's name. The service worker
 * (dist/sw.js), the offline page and the icons are build output, served by the spa plugin (sw.js with
 * `Cache-Control: no-cache` and `Service-Worker-Allowed: /`).
 */
export default fp(
  async (app) => {
    app.get('/manifest.webmanifest', async (_req, reply) => {
      const info = await readSetting(app.db, 'info');
      const name = typeof info?.name === 'string' && info.name.trim() ? info.name : DEFAULT_APP_NAME;
      // Revalidated on every use: the browser picks up a renamed operator at its next manifest check.
      return reply
        .header('Cache-Control', 'no-cache')
        .type('application/manifest+json; charset=utf-8')
        .send(JSON.stringify(webManifest(name, app.config.market)));
    });
  },
  { name: 'pwa', dependencies: ['db'] },
);
