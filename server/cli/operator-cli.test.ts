import { buildTestApp, type TestApp } from '../test/support/helper';
import { USAGE } from './operator-cli';
import { operatorSession } from '../test/support/operator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { seedDemo } from '../demo/index';
import type { AppError } from '../errors';

let t: TestApp;
const { run, out, err } = operatorSession(() => ({ db: t.db.db, config: t.app.config }));

beforeAll(async () => {
  t = await buildTestApp();
  await seedDemo(t.db.db);
});
afterAll(() => t.close());

test('site gone terminates the site for every visitor; site active brings it back', async () => {
  expect(await run('site')).toBe(0);
  expect(out).toEqual(['site: active']);

  expect(await run('site', 'gone')).toBe(0);
  expect((await t.app.inject({ method: 'GET', url: '/api/lookup/active' })).json()).toEqual({ terminated: 'gone' });
  await run('site');
  expect(out).toEqual(['site: gone']);

  expect(await run('site', 'active')).toBe(0);
  expect((await t.app.inject({ method: 'GET', url: '/api/lookup/active' })).json()).toEqual({ terminated: null });
});

test('a gone player gets 410 gone on every call; inactive ends the sessions; active lets them log in again', async () => {
  const player = await t.db.db.selectFrom('players').select('id').where('phone', '=', '0812345678').executeTakeFirstOrThrow();
  const token = await t.app.tokens.issue(Number(player.id));
  // The auth preHandler every player route uses: resolves for a live session, throws the API error otherwise.
  const authed = (tok: string) =>
    t.app.authenticate({ headers: { authorization: `Bearer ${tok}` } } as FastifyRequest, {} as FastifyReply).then(
      () => 'ok',
      (e: AppError) => `${e.statusCode} ${e.code}`,
    );
  expect(await authed(token)).toBe('ok');

  expect(await run('player', '0812345678', 'gone')).toBe(0);
  expect(out).toEqual(['player 0812345678: gone']);
  expect(await authed(token)).toBe('410 gone'); // the SPA sends the player to /terminated

  expect(await run('player', '0812345678', 'inactive')).toBe(0);
  await run('player', '0812345678');
  expect(out[0]).toMatch(/^player 0812345678 \(id \d+, Demo Player\): inactive$/);
  const open = await t.db.db.selectFrom('sessions').select('id').where('player_id', '=', player.id).where('revoked_at', 'is', null).execute();
  expect(open).toHaveLength(0);

  expect(await run('player', '0812345678', 'active')).toBe(0);
  expect(await authed(token)).toBe('401 invalid-token'); // the old session stays ended
  expect(await authed(await t.app.tokens.issue(Number(player.id)))).toBe('ok');
});

test('an unknown player is reported, not created', async () => {
  expect(await run('player', '0899999999', 'gone')).toBe(1);
  expect(err).toEqual(['no player with phone 0899999999']);
});

test('lookups prints what the API answers', async () => {
  expect(await run('lookups', 'withdraw')).toBe(0);
  expect(JSON.parse(out.join('\n'))).toEqual({ withdrawMin: 100, withdrawMax: 50000 });
  expect(await run('lookups')).toBe(0);
  const all = JSON.parse(out.join('\n')) as Record<string, unknown>;
  expect(Object.keys(all)).toEqual(expect.arrayContaining(['banks', 'deposit', 'slip', 'active', 'registerOTP']));
  expect(all.banks).toEqual((await t.app.inject({ method: 'GET', url: '/api/lookup/banks' })).json());
  expect(await run('lookups', 'nope')).toBe(2);
});

test('bad usage prints the usage and exits 2', async () => {
  expect(await run('site', 'maybe')).toBe(2);
  expect(err.join('')).toContain('Usage: npm run operator');
  expect(await run('player', '0812345678', 'deleted')).toBe(2);
  expect(await run('frobnicate')).toBe(2);
  expect(await run('help')).toBe(0);
  expect(out).toEqual([USAGE]);
});
