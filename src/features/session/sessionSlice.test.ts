import { sessionEnded, tokenReplaced } from '../../core/authEvents';
import {
  initialSession,
  loggedInSession,
  selectIsLoggedIn,
  selectLoginError,
  selectLoginStatus,
  selectSessionExpired,
  selectToken,
  sessionReducer,
  type SessionState,
} from './sessionSlice';

/** RTK Query's own action shapes for the login mutation, so the slice's matchers see what the app dispatches. */
const arg = (remember: boolean) => ({
  type: 'mutation' as const,
  endpointName: 'login',
  originalArgs: { username: '0812345678', password: 'secret1', remember },
  track: true,
});
const pending = (requestId: string, remember = false) => ({
  type: 'api/executeMutation/pending',
  payload: undefined,
  meta: { requestId, requestStatus: 'pending', startedTimeStamp: 1, arg: arg(remember) },
});
const fulfilled = (requestId: string, token = 'tok-1') => ({
  type: 'api/executeMutation/fulfilled',
  payload: { token },
  meta: { requestId, requestStatus: 'fulfilled', fulfilledTimeStamp: 2, arg: arg(false), baseQueryMeta: {} },
});
const rejected = (requestId: string, message = 'WRONG_CREDENTIAL') => ({
  type: 'api/executeMutation/rejected',
  payload: { status: 401, data: { message } },
  error: { message: 'Rejected' },
  meta: { requestId, requestStatus: 'rejected', rejectedWithValue: true, aborted: false, condition: false, arg: arg(false) },
});

const submitting = (requestId: string, remember = false): SessionState => ({
  token: null,
  remember,
  login: { status: 'submitting', requestId },
});
const idleWith = (error: string | null, remember = false): SessionState => ({ token: null, remember, login: { status: 'idle', error } });
/** Logged out because the server refused the token: the login screen says so until the next submission. */
const expired: SessionState = { token: null, remember: false, login: { status: 'idle', error: null, expired: true } };

describe('session slice: the login machine', () => {
  it.each<[string, SessionState, { type: string }, SessionState]>([
    ['idle + submit -> submitting', initialSession, pending('r1'), submitting('r1')],
    ['idle + submit with remember-me -> submitting, remembered', initialSession, pending('r1', true), submitting('r1', true)],
    ['idle with an error + submit -> submitting (error cleared)', idleWith('WRONG_CREDENTIAL'), pending('r2'), submitting('r2')],
    ['submitting + its answer -> loggedIn with the token', submitting('r1'), fulfilled('r1', 'abc'), loggedInSession('abc')],
    ['submitting (remember) + its answer -> loggedIn, remembered', submitting('r1', true), fulfilled('r1', 'abc'), loggedInSession('abc', true)],
    ['submitting + its failure -> idle with the code', submitting('r1'), rejected('r1', 'REQUEST_LIMIT'), idleWith('REQUEST_LIMIT')],
    ['loggedIn + session ended -> idle, no token', loggedInSession('abc', true), sessionEnded('logout'), initialSession],
    ['loggedIn + token refused -> idle, no token, expired', loggedInSession('abc'), sessionEnded('rejected'), expired],
    ['loggedIn (remember) + token refused -> idle, no token, expired, remember-me forgotten', loggedInSession('abc', true), sessionEnded('rejected'), expired],
    ['expired + submit -> submitting (the notice cleared)', expired, pending('r3'), submitting('r3')],
    ['loggedIn + public page visited -> idle, no token', loggedInSession('abc'), sessionEnded('public-page'), initialSession],
    ['loggedIn (remember) + token replaced -> the new token, still remembered', loggedInSession('abc', true), tokenReplaced('def'), loggedInSession('def', true)],
    ['loggedIn (this tab) + token replaced -> the new token, still this tab', loggedInSession('abc'), tokenReplaced('def'), loggedInSession('def')],
  ])('%s', (_name, before, action, after) => {
    expect(sessionReducer(before, action)).toEqual(after);
  });

  it.each<[string, SessionState, { type: string }]>([
    ['a second submit while submitting', submitting('r1'), pending('r2')],
    ['a submit while logged in', loggedInSession('abc'), pending('r2')],
    ['an answer to another request', submitting('r1'), fulfilled('r0')],
    ['a failure of another request', submitting('r1'), rejected('r0')],
    ['an answer while idle', initialSession, fulfilled('r1')],
    ['a failure while logged in', loggedInSession('abc'), rejected('r1')],
    ['ending a session while submitting', submitting('r1'), sessionEnded('rejected')],
    ['ending a session that does not exist', idleWith('WRONG_CREDENTIAL'), sessionEnded('public-page')],
    ['a second refusal after the session already ended', expired, sessionEnded('rejected')],
    ['a logout after the session already expired', expired, sessionEnded('logout')],
    ['a token replaced while logged out', initialSession, tokenReplaced('def')],
    ['a token replaced while submitting', submitting('r1'), tokenReplaced('def')],
    ['an empty replacement token', loggedInSession('abc'), tokenReplaced('')],
  ])('refuses %s (state unchanged)', (_name, before, action) => {
    expect(sessionReducer(before, action)).toBe(before);
  });

  it('has selectors for the views and the base API', () => {
    const state = (session: SessionState) => ({ session });
    expect(selectToken(state(loggedInSession('abc')))).toBe('abc');
    expect(selectIsLoggedIn(state(loggedInSession('abc')))).toBe(true);
    expect(selectIsLoggedIn(state(initialSession))).toBe(false);
    expect(selectLoginStatus(state(submitting('r1')))).toBe('submitting');
    expect(selectLoginError(state(idleWith('WRONG_CREDENTIAL')))).toBe('WRONG_CREDENTIAL');
    expect(selectLoginError(state(submitting('r1')))).toBeNull();
    expect(selectSessionExpired(state(expired))).toBe(true);
    expect(selectSessionExpired(state(initialSession))).toBe(false);
    expect(selectSessionExpired(state(sessionReducer(loggedInSession('abc'), sessionEnded('logout'))))).toBe(false);
    expect(selectSessionExpired(state(sessionReducer(loggedInSession('abc'), sessionEnded('public-page'))))).toBe(false);
    expect(selectSessionExpired(state(sessionReducer(expired, pending('r3'))))).toBe(false);
  });
});
