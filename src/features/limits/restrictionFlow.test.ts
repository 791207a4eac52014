import type { UnknownAction } from '@reduxjs/toolkit';
import { mutationAction, type Phase } from '../../test/support/rtkActions';
import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { sessionEnded } from '../../core/authEvents';
import { makeStore } from '../../app/store';
import { errorResponse, limitsAnswer, server } from '../../test/support/server';
import {
  confirmCancelled,
  firstConfirmed,
  initialRestrictionFlow,
  restrictionChosen,
  restrictionFlowReducer,
  resultDismissed,
  type RestrictionFlow,
} from './restrictionFlow';
import { restrictionSubmitted } from './RestrictionSection';

/** The takeRestriction endpoint's own RTK Query actions (another endpoint's by name). */
const request = (phase: Phase, requestId: string, payload?: unknown, endpointName = 'takeRestriction'): UnknownAction =>
  mutationAction(endpointName, phase, requestId, { kind: 'TIMEOUT', period: '7d' }, payload);

const choice = { kind: 'TIMEOUT', period: '7d' } as const;
const END = '2026-12-03T12:00:00.000Z';
const SERVER_END = '2026-12-03T12:00:05.000Z';
const idle = initialRestrictionFlow;
const confirm1: RestrictionFlow = { status: 'confirm1', ...choice };
const confirm2: RestrictionFlow = { status: 'confirm2', ...choice, endsAt: END };
const submitting: RestrictionFlow = { status: 'submitting', ...choice, endsAt: END, requestId: 'r1' };
const done: RestrictionFlow = { status: 'done', ...choice, endsAt: SERVER_END };
const failed: RestrictionFlow = { status: 'failed', ...choice, code: 'RESTRICTION_ACTIVE' };
const refusal = { status: 409, data: { message: 'RESTRICTION_ACTIVE' } };
const answer = { restriction: { kind: 'TIMEOUT' as const, period: '7d', startsAt: '2026-11-26T12:00:05.000Z', endsAt: SERVER_END } };

const run = (actions: UnknownAction[], from: RestrictionFlow = idle) => actions.reduce(restrictionFlowReducer, from);

describe('restriction confirmation machine: allowed transitions', () => {
  it('idle -> confirm1 when a period is chosen', () => {
    expect(run([restrictionChosen(choice)])).toEqual(confirm1);
  });
  it('confirm1 -> confirm2 on the first confirmation, which names the end date', () => {
    expect(run([firstConfirmed({ endsAt: END })], confirm1)).toEqual(confirm2);
  });
  it('confirm2 -> submitting when the request is sent (its request id kept)', () => {
    expect(run([request('pending', 'r1')], confirm2)).toEqual(submitting);
  });
  it("submitting -> done with the server's end date", () => {
    expect(run([request('fulfilled', 'r1', answer)], submitting)).toEqual(done);
  });
  it('submitting -> done with the named date when the answer has none', () => {
    expect(run([request('fulfilled', 'r1', {})], submitting)).toEqual({ ...done, endsAt: END });
  });
  it('submitting -> failed with the refusal code', () => {
    expect(run([{ ...request('rejected', 'r1'), payload: refusal }], submitting)).toEqual(failed);
  });
  it('confirm1 and confirm2 -> idle on cancel', () => {
    expect(run([confirmCancelled()], confirm1)).toEqual(idle);
    expect(run([confirmCancelled()], confirm2)).toEqual(idle);
  });
  it('done and failed -> idle when dismissed', () => {
    expect(run([resultDismissed()], done)).toEqual(idle);
    expect(run([resultDismissed()], failed)).toEqual(idle);
  });
  it('any state -> idle when the session ends', () => {
    for (const state of [confirm1, confirm2, submitting, done, failed]) expect(run([sessionEnded('logout')], state)).toEqual(idle);
  });
});

describe('restriction confirmation machine: refused transitions change nothing', () => {
  const all: [string, RestrictionFlow][] = [
    ['idle', idle],
    ['confirm1', confirm1],
    ['confirm2', confirm2],
    ['submitting', submitting],
    ['done', done],
    ['failed', failed],
  ];
  const refused: [string, UnknownAction, string[]][] = [
    ['restrictionChosen', restrictionChosen({ kind: 'EXCLUSION', period: '5y' }), ['confirm1', 'confirm2', 'submitting', 'done', 'failed']],
    ['firstConfirmed', firstConfirmed({ endsAt: '2030-01-01T00:00:00.000Z' }), ['idle', 'confirm2', 'submitting', 'done', 'failed']],
    ['confirmCancelled', confirmCancelled(), ['idle', 'submitting', 'done', 'failed']],
    ['resultDismissed', resultDismissed(), ['idle', 'confirm1', 'confirm2', 'submitting']],
    ['request sent', request('pending', 'r2'), ['idle', 'confirm1', 'submitting', 'done', 'failed']],
    ['answer', request('fulfilled', 'r1', answer), ['idle', 'confirm1', 'confirm2', 'done', 'failed']],
    ['refusal', { ...request('rejected', 'r1'), payload: refusal }, ['idle', 'confirm1', 'confirm2', 'done', 'failed']],
  ];
  for (const [event, action, from] of refused) {
    it.each(all.filter(([name]) => from.includes(name)))(`${event} in %s`, (_name, state) => {
      expect(restrictionFlowReducer(state, action)).toBe(state);
    });
  }

  it("ignores another request's answer or refusal while submitting", () => {
    expect(restrictionFlowReducer(submitting, request('fulfilled', 'other', answer))).toBe(submitting);
    expect(restrictionFlowReducer(submitting, { ...request('rejected', 'other'), payload: refusal })).toBe(submitting);
  });

  it("ignores another endpoint's requests", () => {
    expect(restrictionFlowReducer(confirm2, request('pending', 'r9', undefined, 'setLimit'))).toBe(confirm2);
    expect(restrictionFlowReducer(submitting, request('fulfilled', 'r1', answer, 'setLimit'))).toBe(submitting);
  });
});

describe('restriction confirmation machine: in the store, against the endpoint', () => {
  it('sends POST /api/limits/restriction with confirm: true only from the second confirmation', async () => {
    const bodies: unknown[] = [];
    server.use(
      http.post('/api/limits/restriction', async ({ request: req }) => {
        bodies.push(await req.json());
        return HttpResponse.json(limitsAnswer(answer));
      }),
    );
    const store = makeStore();
    expect(store.dispatch(restrictionSubmitted())).toBeNull();
    store.dispatch(restrictionChosen(choice));
    expect(store.dispatch(restrictionSubmitted())).toBeNull();
    store.dispatch(firstConfirmed({ endsAt: END }));
    store.dispatch(restrictionSubmitted());
    expect(store.getState().restrictionFlow.status).toBe('submitting');
    // A second press while it is under way sends nothing more.
    expect(store.dispatch(restrictionSubmitted())).toBeNull();
    await waitFor(() => expect(store.getState().restrictionFlow).toEqual(done));
    expect(bodies).toEqual([{ kind: 'TIMEOUT', period: '7d', confirm: true }]);
  });

  it('ends in failed with the code the server refused with', async () => {
    server.use(http.post('/api/limits/restriction', () => errorResponse('RESTRICTION_ACTIVE', 409)));
    const store = makeStore();
    store.dispatch(restrictionChosen(choice));
    store.dispatch(firstConfirmed({ endsAt: END }));
    store.dispatch(restrictionSubmitted());
    await waitFor(() => expect(store.getState().restrictionFlow).toEqual(failed));
  });
});
