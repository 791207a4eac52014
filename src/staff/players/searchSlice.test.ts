import type { UnknownAction } from '@reduxjs/toolkit';

import type { PlayerLookup } from './api';
import { pageLeft, playerSearchReducer, searchedEmpty, searchPlayer, type PlayerSearch } from './searchSlice';

/**
 * The player search's transition table. Events are the lookup and status endpoints' own RTK Query actions, built
 * here in their documented shape (the staff API's reducer path, meta.requestId, meta.arg.endpointName/originalArgs).
 */
type Phase = 'pending' | 'fulfilled' | 'rejected';
function endpointAction(kind: 'query' | 'mutation', endpointName: string, phase: Phase, requestId: string, originalArgs: unknown, payload?: unknown): UnknownAction {
  return {
    type: `staffApi/execute${kind === 'query' ? 'Query' : 'Mutation'}/${phase}`,
    payload,
    meta: {
      requestId,
      requestStatus: phase,
      arg: { type: kind, endpointName, originalArgs, ...(kind === 'mutation' ? { track: false } : {}) },
      startedTimeStamp: 0,
      ...(phase === 'fulfilled' ? { fulfilledTimeStamp: 0 } : {}),
      ...(phase === 'rejected' ? { rejectedWithValue: true } : {}),
    },
    ...(phase === 'rejected' ? { error: { message: 'Rejected' } } : {}),
  };
}
const lookup = (phase: Phase, phone: string, requestId: string, payload?: unknown) => endpointAction('query', 'lookupPlayer', phase, requestId, phone, payload);
const setStatus = (phase: Phase, id: number, requestId: string, payload?: unknown) =>
  endpointAction('mutation', 'setPlayerStatus', phase, requestId, { id, status: 'inactive', reason: 'asked' }, payload);

const found: PlayerLookup = {
  player: {
    id: 42,
    phone: '0812345678',
    name: 'Somchai',
    status: 'active',
    currency: 'THB',
    wallet: 10,
    games: [],
    coin: 0,
    createdAt: '2026-11-01T03:00:00.000Z',
    bank: { code: 'SCB', accountNo: '1', accountName: 'S' },
  },
  movements: [],
};

const run = (actions: UnknownAction[], from?: PlayerSearch) => actions.reduce(playerSearchReducer, from ?? playerSearchReducer(undefined, { type: '@@init' }));
const foundState = () => run([lookup('pending', '0812345678', 'r1'), lookup('fulfilled', '0812345678', 'r1', found)]);

describe('player search machine', () => {
  it('starts idle', () => {
    expect(run([])).toEqual({ phase: 'idle' });
  });

  it('idle -> searching -> found, the answer matched by its request id', () => {
    const searching = run([lookup('pending', '0812345678', 'r1')]);
    expect(searching).toEqual({ phase: 'searching', requestId: 'r1', phone: '0812345678' });
    expect(run([lookup('fulfilled', '0812345678', 'r1', found)], searching)).toEqual({ phase: 'found', requestId: 'r1', result: found });
  });

  it('searching -> notFound on NO_DATA, failed on any other refusal (INVALID_USER_INFO, NETWORK)', () => {
    const searching = run([lookup('pending', '0899999999', 'r1')]);
    expect(run([lookup('rejected', '0899999999', 'r1', { code: 'NO_DATA', status: 404 })], searching)).toEqual({ phase: 'notFound', phone: '0899999999' });
    expect(run([lookup('rejected', '0899999999', 'r1', { code: 'INVALID_USER_INFO', status: 400 })], searching)).toEqual({ phase: 'failed', code: 'INVALID_USER_INFO' });
    expect(run([lookup('rejected', '0899999999', 'r1', { code: 'NETWORK', status: 0 })], searching)).toEqual({ phase: 'failed', code: 'NETWORK' });
  });

  it('a new search from any state replaces what was shown', () => {
    for (const from of [foundState(), run([searchedEmpty()]), run([lookup('pending', '1', 'r1'), lookup('rejected', '1', 'r1', { code: 'X', status: 500 })])]) {
      expect(run([lookup('pending', '0811111111', 'r9')], from)).toEqual({ phase: 'searching', requestId: 'r9', phone: '0811111111' });
    }
  });

  it('the answer of an older search changes nothing (latest search wins)', () => {
    const second = run([lookup('pending', '0811111111', 'r1'), lookup('pending', '0812345678', 'r2')]);
    expect(run([lookup('fulfilled', '0811111111', 'r1', found)], second)).toBe(second);
    expect(run([lookup('rejected', '0811111111', 'r1', { code: 'NO_DATA', status: 404 })], second)).toBe(second);
    expect(run([lookup('fulfilled', '0812345678', 'r2', found)], second)).toEqual({ phase: 'found', requestId: 'r2', result: found });
  });

  it('an answer with no search running is ignored', () => {
    const idle = run([]);
    expect(run([lookup('fulfilled', '0812345678', 'r1', found)], idle)).toBe(idle);
    const shown = foundState();
    expect(run([lookup('fulfilled', '0812345678', 'r1', { ...found, movements: [] })], shown)).toBe(shown);
  });

  it('an empty field: empty, except while a search runs (refused)', () => {
    expect(run([searchedEmpty()])).toEqual({ phase: 'empty' });
    expect(run([searchedEmpty()], foundState())).toEqual({ phase: 'empty' });
    const searching = run([lookup('pending', '0812345678', 'r1')]);
    expect(run([searchedEmpty()], searching)).toBe(searching);
  });

  it('found: the status set follows the answer; PLAYER_GONE shows the player gone; other refusals change nothing', () => {
    const shown = foundState();
    const inactive = run([setStatus('fulfilled', 42, 's1', { id: 42, status: 'inactive' })], shown);
    expect(inactive.phase === 'found' && inactive.result.player.status).toBe('inactive');
    const gone = run([setStatus('rejected', 42, 's2', { code: 'PLAYER_GONE', status: 409 })], shown);
    expect(gone.phase === 'found' && gone.result.player.status).toBe('gone');
    expect(run([setStatus('rejected', 42, 's3', { code: 'REQUEST_LIMIT', status: 429 })], shown)).toBe(shown);
  });

  it('a status answer for another player, or with no player shown, is ignored', () => {
    const shown = foundState();
    expect(run([setStatus('fulfilled', 7, 's1', { id: 7, status: 'inactive' })], shown)).toBe(shown);
    const idle = run([]);
    expect(run([setStatus('fulfilled', 42, 's1', { id: 42, status: 'inactive' })], idle)).toBe(idle);
  });

  it('leaving the page goes back to idle, so a late answer finds nothing to change', () => {
    const left = run([lookup('pending', '0812345678', 'r1'), pageLeft()]);
    expect(left).toEqual({ phase: 'idle' });
    expect(run([lookup('fulfilled', '0812345678', 'r1', found)], left)).toBe(left);
    const idle = run([]);
    expect(run([pageLeft()], idle)).toBe(idle);
  });

  it('searchPlayer trims the phone, and asks nothing for an empty field', () => {
    const dispatched: unknown[] = [];
    const dispatch = (a: unknown) => {
      dispatched.push(a);
      return a;
    };
    expect(searchPlayer('   ')(dispatch as never, () => ({}), undefined)).toBe(false);
    expect(dispatched).toEqual([searchedEmpty()]);
  });
});
