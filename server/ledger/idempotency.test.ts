import Fastify, { type FastifyInstance } from 'fastify';
import { AppError, tooMany, unprocessable } from '../errors';
import { freshDb, type TestDb } from '../test/helper';
import { idempotent } from './idempotency';
import { insertPlayer } from './test-support';
import { seedBase } from '../db/seed';

/** idempotent() on its own: which answers a key keeps, and which it forgets so a retry can run. */
let db: TestDb;
let app: FastifyInstance;
let answers: (() => unknown)[] = [];
let runs = 0;

beforeAll(async () => {
  db = await freshDb();
  await seedBase(db.db);
  const playerId = await insertPlayer(db.db);
  app = Fastify();
  app.decorateRequest('playerId', 0);
  app.addHook('onRequest', async (req) => {
    req.playerId = playerId;
  });
  app.setErrorHandler((err, _req, reply) => {
    const e = err as AppError;
    return reply.status(e.statusCode ?? 500).send({ message: e.code ?? 'INTERNAL_SERVER_ERROR' });
  });
  app.post('/move', async (req, reply) =>
    idempotent(db.db, req, reply, async () => {
      runs += 1;
      return { body: answers.shift()!() as object };
    }),
  );
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.dispose();
});
beforeEach(() => {
  runs = 0;
});

const move = (key: string) => app.inject({ method: 'POST', url: '/move', headers: { 'idempotency-key': key }, payload: { amount: 5 } });

test('a business refusal is the answer for good: the same key replays it without running again', async () => {
  answers = [() => { throw unprocessable('MONEY_NOT_ENOUGH'); }, () => ({ ok: true })];
  expect((await move('k-refused')).json()).toEqual({ message: 'MONEY_NOT_ENOUGH' });
  const again = await move('k-refused');
  expect([again.statusCode, again.json(), again.headers['idempotent-replayed']]).toEqual([422, { message: 'MONEY_NOT_ENOUGH' }, 'true']);
  expect(runs).toBe(1);
});

test('a rate limit is not an answer: the key is forgotten, so the same request runs once the limit has passed', async () => {
  answers = [() => { throw tooMany('REQUEST_LIMIT'); }, () => ({ ok: true })];
  const limited = await move('k-limited');
  expect([limited.statusCode, limited.json()]).toEqual([429, { message: 'REQUEST_LIMIT' }]);
  const retry = await move('k-limited');
  expect([retry.statusCode, retry.json()]).toEqual([200, { ok: true }]);
  expect(runs).toBe(2);
});

test('an unexpected failure is forgotten too', async () => {
  answers = [() => { throw new Error('disk on fire'); }, () => ({ ok: 1 })];
  expect((await move('k-crash')).statusCode).toBe(500);
  expect((await move('k-crash')).json()).toEqual({ ok: 1 });
  expect(runs).toBe(2);
});

test('a success is replayed', async () => {
  answers = [() => ({ id: 'w1' }), () => ({ id: 'w2' })];
  expect((await move('k-ok')).json()).toEqual({ id: 'w1' });
  expect((await move('k-ok')).json()).toEqual({ id: 'w1' });
  expect(runs).toBe(1);
});
