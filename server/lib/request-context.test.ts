import pino from 'pino';
import { outboundHeaders, requestIdOf, scoped, scopeOf } from './request-context';

/** The request's id passed as an argument (docs/operations.md "Request ids"). */
const processLog = pino({ level: 'silent' });
const req = { id: 'req-7', log: processLog.child({ reqId: 'req-7' }) };

test("scoped hands a copy of the dependencies with the request's logger and call; the shared ones stay as they were", () => {
  const deps = { db: { name: 'the database' }, claimMs: 5, log: processLog };
  const mine = scoped(deps, req);
  expect(mine).toEqual({ db: deps.db, claimMs: 5, log: req.log, call: { requestId: 'req-7' } });
  expect(mine.db).toBe(deps.db);
  expect(deps).toEqual({ db: deps.db, claimMs: 5, log: processLog });
});

test('scopeOf is the logger and the call of a request', () => {
  expect(scopeOf(req)).toEqual({ log: req.log, call: { requestId: 'req-7' } });
});

test('outboundHeaders names the request only when a call has one', () => {
  expect(outboundHeaders({ requestId: 'req-7' })).toEqual({ 'x-request-id': 'req-7' });
  expect(outboundHeaders()).toEqual({});
});

test("requestIdOf keeps a plain incoming id and replaces anything else with a UUID", () => {
  expect(requestIdOf({ headers: { 'x-request-id': 'trace.1:a-b' } })).toBe('trace.1:a-b');
  for (const given of [undefined, '', 'has space', 'x'.repeat(65), ['a', 'b']]) {
    expect(requestIdOf({ headers: { 'x-request-id': given } })).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  }
});
