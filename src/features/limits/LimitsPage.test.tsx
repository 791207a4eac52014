import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import type { LimitsAnswer } from '../../core/playLimits';
import { initialPrefs } from '../../core/prefs';
import { formatDateTime } from '../../lib/format';
import { renderApp } from '../../test/support/render';
import { errorResponse, limitsAnswer, server } from '../../test/support/server';

const loggedIn = { preloadedState: { session: { token: 'tok', remember: true, login: { status: 'loggedIn' as const } } } };
const RAISE_AT = '2026-11-27T10:00:00.000Z';
const REMOVE_AT = '2026-11-27T11:00:00.000Z';

function answerWith(overrides: Partial<LimitsAnswer> = {}) {
  const base = limitsAnswer();
  return limitsAnswer({
    limits: {
      ...base.limits,
      depositDay: { value: 1000, pending: { value: 2000, effectiveAt: RAISE_AT } },
      lossWeek: { value: 500, pending: null },
      sessionMinutes: { value: 90, pending: { value: null, effectiveAt: REMOVE_AT } },
    },
    usage: { ...base.usage, depositDay: 250, lossWeek: 120.5 },
    ...overrides,
  });
}

/** GET /api/limits answers `current` (changed by the test), and every call is recorded. */
function limitsBackend(initial = answerWith()) {
  const state = { current: initial, puts: [] as unknown[], posts: [] as unknown[], realities: [] as unknown[], historyPages: [] as string[] };
  server.use(
    http.get('/api/limits', () => HttpResponse.json(state.current)),
    http.put('/api/limits', async ({ request }) => {
      state.puts.push(await request.json());
      return HttpResponse.json(state.current);
    }),
    http.put('/api/limits/reality', async ({ request }) => {
      state.realities.push(await request.json());
      return HttpResponse.json(state.current);
    }),
    http.post('/api/limits/restriction', async ({ request }) => {
      const body = (await request.json()) as { period: string };
      state.posts.push(body);
      state.current = { ...state.current, restriction: { kind: 'TIMEOUT', period: body.period, startsAt: new Date().toISOString(), endsAt: '2026-12-03T10:00:00.000Z' } };
      return HttpResponse.json(state.current);
    }),
    http.get('/api/limits/history', ({ request }) => {
      const page = new URL(request.url).searchParams.get('page') ?? '';
      state.historyPages.push(page);
      return HttpResponse.json({ items: [], page: Number(page), totalPages: 1 });
    }),
  );
  return state;
}

describe('play limits page', () => {
  it('shows each limit with its usage and a pending change with when it takes effect', async () => {
    limitsBackend();
    renderApp('/user/limits', loggedIn);
    expect(await screen.findByTestId('limit-depositDay-value')).toHaveTextContent('Current limit: 1,000.00 baht');
    expect(screen.getByTestId('page-title')).toHaveTextContent('Play limits');
    expect(screen.getByTestId('limit-depositDay-usage')).toHaveTextContent('Used in the last 24 hours: 250.00 baht');
    expect(screen.getByTestId('limit-depositDay-pending')).toHaveTextContent(`Changes to 2,000.00 baht: takes effect at ${formatDateTime(RAISE_AT)}`);
    expect(screen.getByTestId('limit-lossWeek-usage')).toHaveTextContent('Used in the last 7 days: 120.50 baht');
    expect(screen.queryByTestId('limit-lossWeek-pending')).not.toBeInTheDocument();
    expect(screen.getByTestId('limit-depositMonth-value')).toHaveTextContent('No limit set');
    expect(screen.getByTestId('limit-sessionMinutes-value')).toHaveTextContent('Current limit: 90 minutes');
    expect(screen.queryByTestId('limit-sessionMinutes-usage')).not.toBeInTheDocument();
    expect(screen.getByTestId('limit-sessionMinutes-pending')).toHaveTextContent(`Limit removed: takes effect at ${formatDateTime(REMOVE_AT)}`);
    // Seven limits, each with its own labelled field, in three groups with one save each (issue 40 item 11), and
    // the reality interval's.
    expect(screen.getAllByRole('button', { name: /^Save/ })).toHaveLength(4);
    expect(screen.getByRole('button', { name: 'Save: Loss limits' })).toBe(screen.getByTestId('limits-loss-save'));
    expect(screen.getByRole('button', { name: 'Remove limit: Weekly loss limit' })).toBe(screen.getByTestId('limit-lossWeek-remove'));
    expect(screen.queryByTestId('limit-depositMonth-remove')).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'New Weekly loss limit (baht)' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: '60 minutes' })).toBeChecked();
  });

  it('says before saving that a higher limit waits 24 hours and a lower one applies at once; sends the value', async () => {
    const backend = limitsBackend();
    const { user } = renderApp('/user/limits', loggedIn);
    const field = await screen.findByTestId('limit-lossWeek-input');
    await user.type(field, '800');
    expect(screen.getByTestId('limit-lossWeek-notice')).toHaveTextContent('A higher limit takes effect 24 hours after you save it.');
    await user.clear(field);
    await user.type(field, '300');
    expect(screen.getByTestId('limit-lossWeek-notice')).toHaveTextContent('A lower limit applies as soon as you save it.');
    expect(backend.puts).toEqual([]);
    await user.click(screen.getByTestId('limits-loss-save'));
    await waitFor(() => expect(backend.puts).toEqual([{ kind: 'lossWeek', value: 300 }]));
    expect(await screen.findByTestId('limit-lossWeek-status')).toHaveTextContent('Saved.');
  });

  it.each([
    ['th' as const, 'ใช้ไปใน 24 ชั่วโมงที่ผ่านมา:'],
    ['la' as const, 'ໃຊ້ໄປໃນ 24 ຊົ່ວໂມງທີ່ຜ່ານມາ:'],
  ])('in %s keeps a space between "used in" and the window that starts with a number (issue 40 item 11)', async (locale, text) => {
    limitsBackend();
    renderApp('/user/limits', { preloadedState: { ...loggedIn.preloadedState, prefs: { ...initialPrefs, locale } } });
    expect(await screen.findByTestId('limit-depositDay-usage')).toHaveTextContent(text);
  });

  it('in Lao reads 150,50 as 150.5 baht, shows the maximum in Lao marks and refuses 150.50 (issue 40)', async () => {
    const backend = limitsBackend();
    const { user } = renderApp('/user/limits', { preloadedState: { ...loggedIn.preloadedState, prefs: { ...initialPrefs, locale: 'la' } } });
    const field = await screen.findByTestId('limit-lossWeek-input');
    expect(field).toHaveAccessibleDescription(expect.stringContaining('10.000.000'));
    await user.type(field, '150.50');
    await user.click(screen.getByTestId('limits-loss-save'));
    expect(field).toHaveAccessibleDescription(expect.stringContaining('1.030,50'));
    await user.clear(field);
    await user.type(field, '150,50');
    await user.click(screen.getByTestId('limits-loss-save'));
    await waitFor(() => expect(backend.puts).toEqual([{ kind: 'lossWeek', value: 150.5 }]));
  });

  it('saves every filled limit of a group with its one save, each with its own outcome; empty ones stay as they are (issue 40 item 11)', async () => {
    const backend = limitsBackend();
    const { user } = renderApp('/user/limits', loggedIn);
    await user.type(await screen.findByTestId('limit-depositDay-input'), '500');
    await user.type(screen.getByTestId('limit-depositMonth-input'), '9000');
    await user.click(screen.getByTestId('limits-deposit-save'));
    await waitFor(() =>
      expect(backend.puts).toEqual([
        { kind: 'depositDay', value: 500 },
        { kind: 'depositMonth', value: 9000 },
      ]),
    );
    expect(await screen.findByTestId('limit-depositDay-status')).toHaveTextContent('Saved.');
    expect(await screen.findByTestId('limit-depositMonth-status')).toHaveTextContent('Saved.');
    expect(screen.getByTestId('limit-depositWeek-status')).toHaveTextContent('');
    // One refused row: nothing of the group is sent.
    await user.type(screen.getByTestId('limit-lossDay-input'), '100');
    await user.type(screen.getByTestId('limit-lossMonth-input'), 'abc');
    await user.click(screen.getByTestId('limits-loss-save'));
    expect(screen.getByTestId('limit-lossMonth-input')).toHaveAttribute('aria-invalid', 'true');
    expect(backend.puts).toHaveLength(2);
  });

  it('says a removal waits 24 hours, sends null, and says when a scheduled change takes effect', async () => {
    const backend = limitsBackend();
    const { user } = renderApp('/user/limits', loggedIn);
    const remove = await screen.findByTestId('limit-lossWeek-remove');
    expect(remove).toHaveAccessibleDescription('Removing a limit takes effect 24 hours after you press it.');
    backend.current = answerWith({ limits: { ...answerWith().limits, lossWeek: { value: 500, pending: { value: null, effectiveAt: REMOVE_AT } } } });
    await user.click(remove);
    await waitFor(() => expect(backend.puts).toEqual([{ kind: 'lossWeek', value: null }]));
    expect(await screen.findByTestId('limit-lossWeek-status')).toHaveTextContent(`Saved. The change takes effect at ${formatDateTime(REMOVE_AT)}.`);
    expect(await screen.findByTestId('limit-lossWeek-pending')).toHaveTextContent('Limit removed');
  });

  it('checks the value before sending, and shows a refusal translated', async () => {
    const backend = limitsBackend();
    const { user } = renderApp('/user/limits', loggedIn);
    const minutes = await screen.findByTestId('limit-sessionMinutes-input');
    await user.type(minutes, '4');
    await user.click(screen.getByTestId('limits-session-save'));
    expect(minutes).toHaveAttribute('aria-invalid', 'true');
    expect(minutes).toHaveAccessibleDescription(/Enter whole minutes from 5 to 1440/);
    expect(backend.puts).toEqual([]);

    server.use(http.put('/api/limits', () => errorResponse('LIMIT_INVALID', 422)));
    await user.type(screen.getByTestId('limit-depositWeek-input'), '100');
    await user.click(screen.getByTestId('limits-deposit-save'));
    expect(await screen.findByTestId('limit-depositWeek-error')).toHaveTextContent('That value is not valid.');
  });

  it('takes a time-out only after two explicit confirmations, the second naming the end date, with confirm: true', async () => {
    const backend = limitsBackend(answerWith());
    const { user } = renderApp('/user/limits', loggedIn);
    await user.click(await screen.findByRole('button', { name: '7 days' }));

    const first = await screen.findByRole('dialog', { name: 'Time-out for 7 days' });
    expect(within(first).getByTestId('restriction-step1')).toHaveTextContent('You are about to take a time-out of 7 days.');
    expect(within(first).getByTestId('restriction-confirm-1')).toHaveFocus();
    expect(backend.posts).toEqual([]);
    await user.click(within(first).getByTestId('restriction-confirm-1'));

    const second = within(screen.getByRole('dialog', { name: 'Time-out for 7 days' })).getByTestId('restriction-step2');
    const named = /will end on (\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2})/.exec(second.textContent ?? '')?.[1];
    expect(named).toBeDefined();
    const confirm = screen.getByRole('button', { name: `Start my time-out until ${named}` });
    expect(confirm).toHaveFocus();
    expect(backend.posts).toEqual([]);
    await user.click(confirm);

    expect(await screen.findByTestId('restriction-done')).toHaveTextContent(`Your time-out runs until ${formatDateTime('2026-12-03T10:00:00.000Z')}.`);
    expect(backend.posts).toEqual([{ kind: 'TIMEOUT', period: '7d', confirm: true }]);
    await user.click(screen.getByTestId('restriction-ok'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(await screen.findByTestId('restriction-running')).toHaveTextContent(`Time-out running until ${formatDateTime('2026-12-03T10:00:00.000Z')}.`);
  });

  it('sends nothing when either confirmation is cancelled (button or Escape)', async () => {
    const backend = limitsBackend();
    const { user } = renderApp('/user/limits', loggedIn);
    await user.click(await screen.findByTestId('exclusion-1y'));
    expect(await screen.findByRole('dialog', { name: 'Self-exclusion for 1 year' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.click(screen.getByTestId('exclusion-1y'));
    await user.click(await screen.findByTestId('restriction-confirm-1'));
    expect(screen.getByTestId('restriction-step2')).toHaveTextContent('your self-exclusion will end on');
    await user.click(screen.getByTestId('restriction-cancel'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(backend.posts).toEqual([]);
  });

  it('shows the refusal of a restriction translated', async () => {
    limitsBackend();
    server.use(http.post('/api/limits/restriction', () => errorResponse('RESTRICTION_ACTIVE', 409)));
    const { user } = renderApp('/user/limits', loggedIn);
    await user.click(await screen.findByTestId('timeout-24h'));
    await user.click(await screen.findByTestId('restriction-confirm-1'));
    await user.click(screen.getByTestId('restriction-confirm-2'));
    expect(await screen.findByTestId('restriction-error')).toHaveTextContent('A time-out or exclusion that ends later is already running.');
  });

  it('saves the reality-check interval', async () => {
    const backend = limitsBackend();
    const { user } = renderApp('/user/limits', loggedIn);
    await user.click(await screen.findByTestId('reality-30'));
    await user.click(screen.getByTestId('reality-save'));
    await waitFor(() => expect(backend.realities).toEqual([{ minutes: 30 }]));
  });

  it('lists the audit trail translated, paged', async () => {
    limitsBackend();
    const items = [
      { id: 9, action: 'TIMEOUT', detail: { period: '7d', endsAt: '2026-12-03T10:00:00.000Z' }, createdAt: '2026-11-26T10:00:00.000Z' },
      { id: 8, action: 'LIMIT_RAISE_SCHEDULED', detail: { kind: 'depositDay', value: 2000, previous: 1000, effectiveAt: RAISE_AT }, createdAt: '2026-11-26T09:00:00.000Z' },
      { id: 7, action: 'LIMIT_SET', detail: { kind: 'sessionMinutes', value: 90, previous: null }, createdAt: '2026-11-26T08:00:00.000Z' },
      { id: 6, action: 'REALITY_INTERVAL', detail: { minutes: 30, previous: 60 }, createdAt: '2026-11-26T07:00:00.000Z' },
      { id: 5, action: 'LIMIT_PENDING_CANCELLED', detail: { kind: 'lossDay', value: 900, previous: 500 }, createdAt: '2026-11-26T06:00:00.000Z' },
    ];
    const pages: string[] = [];
    server.use(
      http.get('/api/limits/history', ({ request }) => {
        const page = new URL(request.url).searchParams.get('page') ?? '';
        pages.push(page);
        return HttpResponse.json({ items: page === '1' ? items : [], page: Number(page), totalPages: 2 });
      }),
    );
    const { user } = renderApp('/user/limits', loggedIn);
    const rows = await screen.findAllByTestId('limits-history-item');
    expect(rows.map((row) => row.textContent)).toEqual([
      `${formatDateTime(items[0].createdAt)}Time-out of 7 days taken, until ${formatDateTime('2026-12-03T10:00:00.000Z')}.`,
      `${formatDateTime(items[1].createdAt)}Daily deposit limit: raise from 1,000.00 baht to 2,000.00 baht, takes effect at ${formatDateTime(RAISE_AT)}.`,
      `${formatDateTime(items[2].createdAt)}Session time limit set to 90 minutes at once (was no limit).`,
      `${formatDateTime(items[3].createdAt)}Reality check set to every 30 minutes.`,
      `${formatDateTime(items[4].createdAt)}Daily loss limit: the waiting change to 900.00 baht was cancelled; the limit stays 500.00 baht.`,
    ]);
    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(pages).toContain('2'));
    expect(await screen.findByTestId('limits-history-empty')).toBeInTheDocument();
  });

  it('is reached from the profile page', async () => {
    limitsBackend();
    server.use(
      http.get('/api/account/profile', () =>
        HttpResponse.json({
          profile: { _id: '1', username: '0812345678', name: 'Demo', createdAt: '2026-11-25T00:00:00.000Z' },
          bankAccount: null,
        }),
      ),
    );
    const { user, router } = renderApp('/user/profile', loggedIn);
    await user.click(await screen.findByRole('link', { name: 'Play limits and breaks' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/limits'));
    expect(await screen.findByTestId('limit-depositDay')).toBeInTheDocument();
  });
});

