import { answered, attemptFor, dismissed, initialMoveFlow, isUncertain, moveFlowReducer, newIdempotencyKey, refused, submitted, type MoveFlow } from './moveFlow';

const attempt = { key: 'k1', body: '{"amount":100}' };
const submitting: MoveFlow = { status: 'submitting', attempt };

describe('money movement machine', () => {
  it.each<[string, MoveFlow, Parameters<typeof moveFlowReducer>[1], MoveFlow]>([
    ['editing + submitted -> submitting', initialMoveFlow, submitted(attempt), submitting],
    ['failed + submitted -> submitting', { status: 'failed', code: 'X', retry: null }, submitted(attempt), submitting],
    ['submitting + answered -> succeeded', submitting, answered({ status: 'IN_PROGRESS', message: 'TRANSFER_IN_PROGRESS' }), { status: 'succeeded', outcome: 'IN_PROGRESS', message: 'TRANSFER_IN_PROGRESS' }],
    ['submitting + refused (definite) -> failed, key forgotten', submitting, refused({ code: 'MONEY_NOT_ENOUGH', uncertain: false }), { status: 'failed', code: 'MONEY_NOT_ENOUGH', retry: null }],
    ['submitting + refused (no answer) -> failed, key kept', submitting, refused({ code: 'TIMEOUT', uncertain: true }), { status: 'failed', code: 'TIMEOUT', retry: attempt }],
    ['failed + dismissed -> editing, keeping the retry', { status: 'failed', code: 'NETWORK', retry: attempt }, dismissed(), { status: 'editing', retry: attempt }],
    ['succeeded + dismissed -> editing', { status: 'succeeded', outcome: 'SUCCESS', message: 'TRANSFER_SUCCESS' }, dismissed(), initialMoveFlow],
  ])('%s', (_name, state, action, next) => {
    expect(moveFlowReducer(state, action)).toEqual(next);
  });

  it.each<[string, MoveFlow, Parameters<typeof moveFlowReducer>[1]]>([
    ['a second submit while one runs', submitting, submitted({ key: 'k2', body: '{}' })],
    ['a submit after success', { status: 'succeeded', outcome: 'SUCCESS', message: 'TRANSFER_SUCCESS' }, submitted(attempt)],
    ['an answer with nothing running', initialMoveFlow, answered({ status: 'SUCCESS', message: 'TRANSFER_SUCCESS' })],
    ['a refusal with nothing running', initialMoveFlow, refused({ code: 'X', uncertain: false })],
    ['dismissing the form', initialMoveFlow, dismissed()],
    ['dismissing while submitting', submitting, dismissed()],
  ])('ignores %s', (_name, state, action) => {
    expect(moveFlowReducer(state, action)).toBe(state);
  });
});

describe('Idempotency-Key per attempt', () => {
  let n = 0;
  const makeKey = () => `key-${++n}`;

  it('is fresh for a new attempt', () => {
    expect(attemptFor(initialMoveFlow, { amount: 100 }, makeKey)).toEqual({ key: 'key-1', body: '{"amount":100}' });
    expect(attemptFor({ status: 'failed', code: 'MONEY_NOT_ENOUGH', retry: null }, { amount: 100 }, makeKey).key).toBe('key-2');
  });

  it('is the same on a retry of an unanswered attempt with the same body, fresh when the body changed', () => {
    const failed: MoveFlow = { status: 'failed', code: 'TIMEOUT', retry: { key: 'kept', body: '{"amount":100}' } };
    expect(attemptFor(failed, { amount: 100 }, makeKey).key).toBe('kept');
    expect(attemptFor({ status: 'editing', retry: failed.retry }, { amount: 100 }, makeKey).key).toBe('kept');
    expect(attemptFor(failed, { amount: 101 }, makeKey).key).toBe('key-3');
  });

  it('makes UUID-shaped keys, also without crypto.randomUUID', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newIdempotencyKey()).toMatch(uuid);
    const original = globalThis.crypto.randomUUID;
    Object.defineProperty(globalThis.crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const a = newIdempotencyKey();
      expect(a).toMatch(uuid);
      expect(newIdempotencyKey()).not.toBe(a);
    } finally {
      Object.defineProperty(globalThis.crypto, 'randomUUID', { value: original, configurable: true });
    }
  });

  it('is kept only when the outcome is unknown', () => {
    expect(isUncertain({ status: 'FETCH_ERROR', error: 'x' })).toBe(true);
    expect(isUncertain({ status: 'TIMEOUT_ERROR', error: 'x' })).toBe(true);
    expect(isUncertain({ status: 502, data: { message: 'INTERNAL_SERVER_ERROR' } })).toBe(true);
    expect(isUncertain({ status: 409, data: { message: 'KEY_INVALID' } })).toBe(true);
    expect(isUncertain({ status: 422, data: { message: 'MONEY_NOT_ENOUGH' } })).toBe(false);
    expect(isUncertain({ status: 400, data: { message: 'KEY_INVALID' } })).toBe(false);
  });
});
