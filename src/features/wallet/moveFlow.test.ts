import { sessionEnded } from '../../core/authEvents';
import type { ReceiptData } from '../../components/receipt';
import { answered, closed, dismissed, initialMoveFlow, initialMoveState, moveFlowReducer, refused, submitted, type MoveFlow, type MoveState } from './moveFlow';
import { attemptFor, isUncertain, newIdempotencyKey } from './moveMoney';

const attempt = { key: 'k1', body: '{"amount":100}' };
const receipt: ReceiptData = { kind: 'transfer', amount: 100, from: 'WALLET', to: 'pg', at: '2026-11-26T10:00:00.000Z', reference: 't1', status: 'IN_PROGRESS' };
const submittingFlow: MoveFlow = { status: 'submitting', attempt };
const succeededFlow: MoveFlow = { status: 'succeeded', outcome: 'SUCCESS', message: 'TRANSFER_SUCCESS', receipt };
/** A state of the slice: a flow, and whether a movement was sent since the modal opened. */
const at = (flow: MoveFlow, attempted = true): MoveState => ({ flow, attempted });
const submitting = at(submittingFlow);

describe('money movement slice', () => {
  it.each<[string, MoveState, Parameters<typeof moveFlowReducer>[1], MoveState]>([
    ['editing + submitted -> submitting, attempted', initialMoveState, submitted(attempt), submitting],
    ['failed + submitted -> submitting', at({ status: 'failed', code: 'X', retry: null }), submitted(attempt), submitting],
    [
      'submitting + answered -> succeeded with the receipt',
      submitting,
      answered({ status: 'IN_PROGRESS', message: 'TRANSFER_IN_PROGRESS', receipt }),
      at({ status: 'succeeded', outcome: 'IN_PROGRESS', message: 'TRANSFER_IN_PROGRESS', receipt }),
    ],
    ['submitting + refused (definite) -> failed, key forgotten', submitting, refused({ code: 'MONEY_NOT_ENOUGH', uncertain: false }), at({ status: 'failed', code: 'MONEY_NOT_ENOUGH', retry: null })],
    ['submitting + refused (no answer) -> failed, key kept', submitting, refused({ code: 'TIMEOUT', uncertain: true }), at({ status: 'failed', code: 'TIMEOUT', retry: attempt })],
    ['failed + dismissed -> editing, keeping the retry', at({ status: 'failed', code: 'NETWORK', retry: attempt }), dismissed(), at({ status: 'editing', retry: attempt })],
    ['succeeded + dismissed -> editing, still attempted', at(succeededFlow), dismissed(), at(initialMoveFlow)],
    ['submitting + closed -> the initial state', submitting, closed(), initialMoveState],
    ['failed with a retry + closed -> the initial state (the key is not kept)', at({ status: 'failed', code: 'NETWORK', retry: attempt }), closed(), initialMoveState],
    ['succeeded + session ended -> the initial state', at(succeededFlow), sessionEnded('logout'), initialMoveState],
  ])('%s', (_name, state, action, next) => {
    expect(moveFlowReducer(state, action)).toEqual(next);
  });

  it.each<[string, MoveState, Parameters<typeof moveFlowReducer>[1]]>([
    ['a second submit while one runs', submitting, submitted({ key: 'k2', body: '{}' })],
    ['a submit after success', at(succeededFlow), submitted(attempt)],
    ['an answer with nothing running', initialMoveState, answered({ status: 'SUCCESS', message: 'TRANSFER_SUCCESS', receipt })],
    ['an answer after the modal closed', at(initialMoveFlow, false), answered({ status: 'SUCCESS', message: 'TRANSFER_SUCCESS', receipt })],
    ['a second answer', at(succeededFlow), answered({ status: 'SUCCESS', message: 'TRANSFER_SUCCESS', receipt })],
    ['a refusal with nothing running', initialMoveState, refused({ code: 'X', uncertain: false })],
    ['a refusal after a success', at(succeededFlow), refused({ code: 'X', uncertain: false })],
    ['dismissing the form', initialMoveState, dismissed()],
    ['dismissing while submitting', submitting, dismissed()],
  ])('refuses %s (the state stays as it is)', (_name, state, action) => {
    expect(moveFlowReducer(state, action)).toBe(state);
  });

  it('starts editing with nothing attempted', () => {
    expect(moveFlowReducer(undefined, { type: '@@init' })).toEqual({ flow: { status: 'editing', retry: null }, attempted: false });
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

describe('in the store', () => {
  it('is injected with the wallet chunk (not in the /login bundle) and reset when the session ends', async () => {
    const { makeStore } = await import('../../app/store');
    const { selectLaunch, selectMoveState } = await import('./flowSlices');
    const store = makeStore();
    expect(store.getState().moveFlow).toEqual(initialMoveState);
    expect(store.getState().gameLaunch).toEqual({ status: 'idle' });
    store.dispatch(submitted(attempt));
    expect(selectMoveState(store.getState())).toEqual(submitting);
    store.dispatch(sessionEnded('logout'));
    expect(selectMoveState(store.getState())).toEqual(initialMoveState);
    expect(selectLaunch(store.getState())).toEqual({ status: 'idle' });
  });
});
