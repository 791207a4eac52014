import Fastify from 'fastify';
import fp from 'fastify-plugin';
import type { RouteEntry } from '../../app';
import playLimits from '.';

/**
 * Issue 15: the play guard is added by the plugin's onRoute hook, which only sees routes registered after it. A play
 * route registered before the plugin would stay open during a time-out: the app refuses to start instead.
 */
async function appWith(order: 'route first' | 'plugin first') {
  const app = Fastify({ logger: false });
  const catalogue: RouteEntry[] = [];
  app.decorate('routeCatalogue', catalogue);
  app.addHook('onRoute', (r) => {
    for (const method of ([] as string[]).concat(r.method)) {
      if (method !== 'HEAD') catalogue.push({ method, url: r.url, protected: true, staff: false, play: r.config?.play === true });
    }
  });
  app.decorate('config', { playMinuteMs: 60_000 } as never);
  app.decorate('clock', { now: () => new Date() });
  await app.register(fp(async (i) => void i.decorate('db', {} as never), { name: 'db' }));
  await app.register(fp(async (i) => void i.decorate('authenticate', async () => {}), { name: 'auth' }));
  const route = () => app.get('/api/early-play', { config: { play: true } }, async () => ({ ok: true }));
  if (order === 'route first') route();
  await app.register(playLimits);
  if (order === 'plugin first') route();
  return app;
}

test('a play route registered before the plugin stops the start', async () => {
  const app = await appWith('route first');
  await expect(app.ready()).rejects.toThrow('play routes registered before the play-limits plugin, unguarded: GET /api/early-play');
  await app.close().catch(() => undefined);
});

test('a play route registered after the plugin is guarded and the app starts', async () => {
  const app = await appWith('plugin first');
  await expect(app.ready()).resolves.toBeDefined();
  await app.close();
});
