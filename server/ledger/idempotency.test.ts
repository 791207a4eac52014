import Fastify, { type FastifyInstance } from 'fastify';
import { AppError, tooMany, unprocessable } from '../errors';
import { freshDb, type TestDb } from '../test/support/helper';
import { idempotent, idempotentIn } from './idempotency';
import { insertPlayer } from '../test/support/ledger';
import { seedBase } from '../db/seed';

/** idempotent() on its own: which answers a key keeps, and which it forgets so a retry can run. */
let db: TestDb;
let app: FastifyInstance;
let answers: (() => unknown)[] = [];
let runs = 0;

/** A bare Fastify app whose every request is `playerId`'s, answering AppErrors as the real app does. */
async function appFor(playerId: number, route: (app: FastifyInstance) => void): Promise<FastifyInstance> {
  const a = Fastify();
  a.decorateRequest('playerId', 0);
  a.addHook('onRequest', async (req) => {
    req.playerId = playerId;
  });
  a.setErrorHandler((err, _req, reply) => {
    const e = err as AppError;
    return reply.status(e.statusCode ?? 500).send({ message: e.code ?? 'INTERNAL_SERVER_ERROR' });
  });
  route(a);
  await a.ready();
  return a;
}

beforeAll(async () => {
  db = await freshDb();
  await seedBase(db.db);
  app = await appFor(await insertPlayer(db.db), (a) =>
    a.post('/move', async (req, reply) =>
      idempotent(db.db, req, reply, async () => {
        runs += 1;
        return { body: answers.shift()!() as object };
      }),
    ),
  );
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

describe("idempotentIn: the key written in the handler's own transactions", () => {
  let inApp: FastifyInstance;
  /** What the handler does in its claiming transaction, after the claim; then what it does after that commit. */
  let inClaim: () => void = () => undefined;
  let after: () => unknown = () => ({ ok: true });
  const marks = async (key: string) =>
    Number((await db.db.selectFrom('sources').select((eb) => eb.fn.countAll<number>().as('n')).where('code', '=', `moved-${key}`).executeTakeFirstOrThrow()).n);

  beforeAll(async () => {
    inApp = await appFor(await insertPlayer(db.db), (a) =>
      a.post<{ Body: { key: string } }>('/move', async (req, reply) =>
      idempotentIn(db.db, req, reply, async (key) => {
        // What this request moves: a row written in the claiming transaction (a source, for want of a simpler table).
        await key!.claiming(async (trx) => {
          await trx.insertInto('sources').values({ code: `moved-${req.body.key}`, description: 'test', sort: 0 }).execute();
          inClaim();
        });
        return { body: after() as object };
      }),
      ),
    );
  });
  afterAll(() => inApp.close());
  beforeEach(() => {
    inClaim = () => undefined;
    after = () => ({ ok: true });
  });

  const moveIn = (key: string) => inApp.inject({ method: 'POST', url: '/move', headers: { 'idempotency-key': key }, payload: { key } });

  test('a refusal inside the claiming transaction rolls the key back with the money, then keeps the refusal', async () => {
    inClaim = () => {
      throw unprocessable('MONEY_NOT_ENOUGH');
    };
    expect((await moveIn('r1')).json()).toEqual({ message: 'MONEY_NOT_ENOUGH' });
    expect(await marks('r1')).toBe(0);
    inClaim = () => undefined;
    const again = await moveIn('r1');
    expect([again.statusCode, again.headers['idempotent-replayed']]).toEqual([422, 'true']);
    expect(await marks('r1')).toBe(0);
  });

  test('a failure after the money committed keeps the key: a retry is refused, never run again', async () => {
    after = () => {
      throw new Error('lost after the commit');
    };
    expect((await moveIn('f1')).statusCode).toBe(500);
    expect(await marks('f1')).toBe(1);
    after = () => ({ ok: true });
    expect([(await moveIn('f1')).json().message, await marks('f1')]).toEqual(['KEY_INVALID', 1]);
  });

  test('a failure before the claim commits forgets nothing but lets a retry run', async () => {
    inClaim = () => {
      throw new Error('disk on fire');
    };
    expect((await moveIn('f2')).statusCode).toBe(500);
    inClaim = () => undefined;
    expect((await moveIn('f2')).json()).toEqual({ ok: true });
    expect(await marks('f2')).toBe(1);
  });

  test('a taken key rolls the claiming transaction back: the first answer replayed, nothing written again', async () => {
    expect((await moveIn('t1')).json()).toEqual({ ok: true });
    const again = await moveIn('t1');
    expect([again.json(), again.headers['idempotent-replayed'], await marks('t1')]).toEqual([{ ok: true }, 'true', 1]);
  });
});
