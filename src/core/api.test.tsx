import { act, render, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse, delay } from 'msw';

import { loggedInSession } from '../features/session/sessionSlice';
import { errorResponse, limitsAnswer, server } from '../test/support/server';
import { api, CLIENT_MARKER, REQUEST_TIMEOUT_MS, UPLOAD_TIMEOUT_MS } from './api';
import { classifyError, errorCode } from './apiErrors';
import { AppProviders } from '../app/AppProviders';
import { sessionEnded, tokenReplaced } from './authEvents';
import { setNavigator } from './navigation';
import { initialPrefs } from './prefs';
import { playLimitsApi } from './playLimits';
import { makeStore } from '../app/store';

const probeApi = api.injectEndpoints({
  endpoints: (build) => ({
    probe: build.query<unknown, string>({ query: (path) => path }),
    silentProbe: build.query<unknown, string>({ query: (path) => path, extraOptions: { silent: true } }),
    upload: build.mutation<unknown, string>({ query: (path) => ({ url: path, method: 'POST' }), extraOptions: { upload: true } }),
  }),
});

function setup({ token = null as string | null } = {}) {
  const store = makeStore({
    prefs: { ...initialPrefs, locale: 'en' },
    ...(token ? { session: loggedInSession(token) } : {}),
  });
  const navigate = jest.fn();
  setNavigator(navigate);
  render(<AppProviders store={store}>{null}</AppProviders>);
  // act(): a failure may mount the toaster.
  const run = (path: string, endpoint: 'probe' | 'silentProbe' = 'probe') =>
    act(() => store.dispatch(probeApi.endpoints[endpoint].initiate(path, { forceRefetch: true })));
  return { store, navigate, run };
}

describe('base API', () => {
  it('sends the Bearer token of the session and the marker header', async () => {
    let headers: Headers | undefined;
    server.use(
      http.get('/api/probe', ({ request }) => {
        headers = request.headers;
        return HttpResponse.json({ ok: true });
      }),
    );
    const { run } = setup({ token: 'tok-42' });
    const result = await run('/api/probe');
    expect(result.data).toEqual({ ok: true });
    expect(headers?.get('authorization')).toBe('Bearer tok-42');
    expect(headers?.get('x-client')).toBe(CLIENT_MARKER);
    expect(CLIENT_MARKER).toBe('player-wallet/1.1.14');
  });

  it('sends no Authorization header without a session', async () => {
    let authorization: string | null = 'unset';
    server.use(
      http.get('/api/probe', ({ request }) => {
        authorization = request.headers.get('authorization');
        return HttpResponse.json({});
      }),
    );
    await setup().run('/api/probe');
    expect(authorization).toBeNull();
  });

  it("sends the player to /terminated on message 'gone'", async () => {
    server.use(http.get('/api/probe', () => errorResponse('gone', 410)));
    const { run, navigate } = setup({ token: 't' });
    await run('/api/probe');
    expect(navigate).toHaveBeenCalledWith('/terminated', { replace: true });
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it.each(['invalid-token', 'UNAUTHORIZED', 'EXPIRED_AUTH_TOKEN', 'INVALID_USER_1', 'INVALID_USER_2', 'INVALID_USER_3', 'INVALID_USER_4'])(
    'clears the session and goes to /login on %s',
    async (code) => {
      server.use(http.get('/api/probe', () => errorResponse(code, 401)));
      const { run, navigate, store } = setup({ token: 't' });
      await run('/api/probe');
      expect(store.getState().session.token).toBeNull();
      expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
    },
  );

  it.each([
    ['/user/statement?page=2', '/login?next=%2Fuser%2Fstatement%3Fpage%3D2'],
    ['/user', '/login?next=%2Fuser'],
    ['/register', '/login'],
    ['/username', '/login'],
    // A second call refused after the first already went to the login screen keeps the next URL it set.
    ['/login?next=%2Fuser%2Fstatement', '/login?next=%2Fuser%2Fstatement'],
  ])('from %s a refused session goes to %s (the next URL only for the player area)', async (at, landing) => {
    server.use(http.get('/api/probe', () => errorResponse('EXPIRED_AUTH_TOKEN', 401)));
    const { run, navigate } = setup({ token: 't' });
    setNavigator(navigate, () => at);
    await run('/api/probe');
    expect(navigate).toHaveBeenCalledWith(landing, { replace: true });
  });

  // The e2e accounts journey once ended on /login?next=/user/profile after a logout: a call of the reloaded page was
  // answered 401 after the logout's revocation and sent the player back with the page they were leaving.
  it('leaves a refusal of a token the device no longer holds alone (a logout or a new token came first)', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/probe', async () => {
        await answered;
        return errorResponse('invalid-token', 401);
      }),
    );
    const { store, navigate } = setup({ token: 'old' });
    setNavigator(navigate, () => '/user/profile');
    const running = store.dispatch(probeApi.endpoints.probe.initiate('/api/probe', { forceRefetch: true }));
    // The password change answers a fresh token while the call is out.
    act(() => void store.dispatch(tokenReplaced('new')));
    answer();
    await act(() => running);
    expect(store.getState().session.token).toBe('new');
    // The logout ends the session while the call is out.
    const next = new Promise<void>((resolve) => (answer = resolve));
    server.use(
      http.get('/api/probe', async () => {
        await next;
        return errorResponse('invalid-token', 401);
      }),
    );
    const second = store.dispatch(probeApi.endpoints.probe.initiate('/api/probe', { forceRefetch: true }));
    act(() => void store.dispatch(sessionEnded('logout')));
    answer();
    await act(() => second);
    expect(navigate).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it("treats the plain text 'cannot verify identity' as a refused session", async () => {
    server.use(http.get('/api/probe', () => new HttpResponse('Cannot verify identity', { status: 401, headers: { 'Content-Type': 'text/plain' } })));
    const { run, navigate, store } = setup({ token: 't' });
    await run('/api/probe');
    expect(store.getState().session.token).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('shows any other code as a translated error toast', async () => {
    server.use(http.get('/api/probe', () => errorResponse('MONEY_NOT_ENOUGH', 422)));
    const { run, navigate, store } = setup({ token: 't' });
    await run('/api/probe');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Your balance is not enough.'));
    expect(navigate).not.toHaveBeenCalled();
    expect(store.getState().session.token).toBe('t');
  });

  it('shows the generic error text for a code it does not know', async () => {
    server.use(http.get('/api/probe', () => errorResponse('SOMETHING_NEW', 400)));
    await setup().run('/api/probe');
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong. Please try again.'));
  });

  it('stays silent for endpoints that opt out, but still handles the session', async () => {
    server.use(
      http.get('/api/quiet', () => errorResponse('NO_DATA', 404)),
      http.get('/api/quiet-auth', () => errorResponse('invalid-token', 401)),
      http.get('/api/loud', () => errorResponse('NO_GAME', 404)),
    );
    const { run, navigate, store } = setup({ token: 't' });
    const quiet = await run('/api/quiet', 'silentProbe');
    expect(errorCode(quiet.error)).toBe('NO_DATA');
    await run('/api/loud');
    // The loud one proves toasts work here; the quiet one never produced its own.
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Game not found.'));
    expect(screen.queryByText('No data found.')).not.toBeInTheDocument();
    await run('/api/quiet-auth', 'silentProbe');
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
    expect(store.getState().session.token).toBeNull();
  });

  it('turns SESSION_LIMIT into the session-limit flag (its dialog), not a toast, silent or not (issue 15)', async () => {
    server.use(
      http.get('/api/probe', () => errorResponse('SESSION_LIMIT', 403)),
      http.get('/api/loud', () => errorResponse('NO_GAME', 404)),
    );
    const { run, navigate, store } = setup({ token: 't' });
    await run('/api/probe', 'silentProbe');
    expect(store.getState().reality.sessionLimit).toBe(true);
    await run('/api/probe');
    await run('/api/loud');
    // The loud one proves toasts work here; SESSION_LIMIT made none.
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Game not found.'));
    expect(screen.queryByText(/session time limit/)).not.toBeInTheDocument();
    expect(navigate).not.toHaveBeenCalled();
    expect(store.getState().session.token).toBe('t');
  });

  it('reloads the play limits when a call is refused for a time-out or self-exclusion (issue 15)', async () => {
    let limits = 0;
    server.use(
      http.get('/api/limits', () => {
        limits += 1;
        return HttpResponse.json(limitsAnswer());
      }),
      http.get('/api/timeout', () => errorResponse('PLAY_TIMEOUT', 403)),
      http.get('/api/excluded', () => errorResponse('SELF_EXCLUDED', 403)),
    );
    const { run, store } = setup({ token: 't' });
    const subscription = store.dispatch(playLimitsApi.endpoints.getLimits.initiate());
    await waitFor(() => expect(limits).toBe(1));
    await run('/api/timeout', 'silentProbe');
    await waitFor(() => expect(limits).toBe(2));
    await run('/api/excluded', 'silentProbe');
    await waitFor(() => expect(limits).toBe(3));
    subscription.unsubscribe();
  });

  it('reports an unreachable server as NETWORK', async () => {
    server.use(http.get('/api/probe', () => HttpResponse.error()));
    const result = await setup().run('/api/probe', 'silentProbe');
    expect(errorCode(result.error)).toBe('NETWORK');
  });

  it('clears the API cache when the session ends', async () => {
    server.use(http.get('/api/probe', () => HttpResponse.json({ secret: 'player A' })));
    const { store } = setup({ token: 't' });
    const sub = store.dispatch(probeApi.endpoints.probe.initiate('/api/probe'));
    await sub;
    expect(probeApi.endpoints.probe.select('/api/probe')(store.getState()).data).toEqual({ secret: 'player A' });
    server.use(http.get('/api/other', () => errorResponse('EXPIRED_AUTH_TOKEN', 401)));
    await act(() => store.dispatch(probeApi.endpoints.probe.initiate('/api/other')));
    await waitFor(() => expect(probeApi.endpoints.probe.select('/api/probe')(store.getState()).data).toBeUndefined());
    sub.unsubscribe();
  });
});

describe('timeouts', () => {
  afterEach(() => jest.useRealTimers());

  it('gives up after 60 s, and after 5 minutes for uploads', async () => {
    expect(REQUEST_TIMEOUT_MS).toBe(60_000);
    expect(UPLOAD_TIMEOUT_MS).toBe(300_000);
    server.use(
      http.get('/api/slow', async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
      http.post('/api/slow-upload', async () => {
        await delay('infinite');
        return HttpResponse.json({});
      }),
    );
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const { store } = setup();
    let query: { error?: unknown } | undefined;
    let upload: { error?: unknown } | undefined;
    void store.dispatch(probeApi.endpoints.silentProbe.initiate('/api/slow')).then((r) => (query = r));
    void store.dispatch(probeApi.endpoints.upload.initiate('/api/slow-upload')).then((r) => (upload = r));

    await act(() => jest.advanceTimersByTimeAsync(59_000));
    expect(query).toBeUndefined();
    await act(() => jest.advanceTimersByTimeAsync(1_500));
    expect(errorCode(query?.error as never)).toBe('TIMEOUT');
    expect(upload).toBeUndefined();

    await act(() => jest.advanceTimersByTimeAsync(300_000 - 60_500 - 1_000));
    expect(upload).toBeUndefined();
    await act(() => jest.advanceTimersByTimeAsync(1_500));
    expect(errorCode(upload?.error as never)).toBe('TIMEOUT');
  });
});

describe('classifyError (spec §8)', () => {
  it.each([
    [{ status: 410, data: { message: 'gone' } }, { kind: 'terminated' }],
    [{ status: 401, data: { message: 'invalid-token' } }, { kind: 'reauth' }],
    [{ status: 401, data: 'cannot verify identity' }, { kind: 'reauth' }],
    [{ status: 401, data: { message: 'Error: cannot verify identity' } }, { kind: 'reauth' }],
    [{ status: 400, data: { message: 'WRONG_CREDENTIAL' } }, { kind: 'message', code: 'WRONG_CREDENTIAL' }],
    [{ status: 500, data: {} }, { kind: 'message', code: 'GENERIC' }],
    [{ status: 'FETCH_ERROR', error: 'x' }, { kind: 'message', code: 'NETWORK' }],
    [{ status: 'TIMEOUT_ERROR', error: 'x' }, { kind: 'message', code: 'TIMEOUT' }],
  ] as const)('%j -> %j', (error, outcome) => {
    expect(classifyError(error as never)).toEqual(outcome);
  });
});
