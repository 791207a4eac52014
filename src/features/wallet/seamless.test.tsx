import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { makeStore } from '../../app/store';
import { initialPrefs } from '../../core/prefs';
import { useGetWalletQuery, walletApi } from '../../core/walletApi';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { serveWallet, slot, walletResponse } from '../../test/support/wallet';
import { walletErrorText } from './errorTexts';
import { GameCard } from './GameCard';
import HomePage from './HomePage';
import { seamlessLaunched } from './launch';
import { selectLaunch } from './flowSlices';
import { launchFailed, linkReady, started } from './launchSlice';
import { selectSeamlessLaunchOutcome } from './SeamlessLaunchNotice';
import { selectTransferAccounts } from './selectors';
import { TransferModal } from './TransferModal';

// Issue 42: a seamless game plays from the wallet. Its card says so instead of a balance and opens the game with
// GET /api/seamless/launch/{code}; nothing in the wallet offers a transfer for it.

const dragon = slot('sm_dragon', { name: 'Dragon Rising', seamless: true });
/** The fixture wallet with a seamless slot game beside the transfer games. */
const withSeamless = () => walletResponse({ slots: [dragon, ...walletResponse().slots] }); // first: 3 cards a page
const accepted = { prefs: { ...initialPrefs, locale: 'en' as const, agreementAccepted: true } };

/** A server answer held until `release` is called. */
function held() {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { gate, release: () => release() };
}

/** A window as window.open gives it, recording where it was sent and whether it was closed. */
function fakeWindow() {
  return { closed: false, opener: {} as unknown, location: { href: '' }, document: { title: '', body: { textContent: '' } }, close: jest.fn() };
}

/** GET /api/seamless/launch/:code answering `answer`; records the codes asked for. */
function serveLaunch(answer: () => Response | Promise<Response>) {
  const asked: string[] = [];
  server.use(
    http.get('/api/seamless/launch/:code', ({ params, request }) => {
      const query = new URL(request.url).searchParams;
      asked.push(`${String(params.code)} ${query.get('lang')} ${query.get('platform')}`);
      return answer();
    }),
  );
  return asked;
}

/** Counts every money-moving or game-account call: a seamless game must make none. */
function countAccountCalls() {
  const calls: string[] = [];
  const record = ({ request }: { request: Request }) => {
    calls.push(new URL(request.url).pathname);
    return HttpResponse.json({ message: 'NO_GAME' }, { status: 404 });
  };
  server.use(
    http.post('/api/wallet/transfer', record),
    http.post('/api/wallet/transferAll', record),
    http.get('/api/wallet/activate/:code', record),
    http.get('/api/wallet/account/:code', record),
    http.get('/api/autoLogin/*', record),
  );
  return calls;
}

function renderHome() {
  serveWallet(withSeamless);
  return renderWithProviders(<HomePage />, { preloadedState: accepted, route: '/user/home' });
}

afterEach(() => jest.restoreAllMocks());

describe('the seamless game card', () => {
  it('says it plays from the wallet instead of a balance, and offers Play, neither open account nor view data', async () => {
    renderHome();
    const card = await screen.findByTestId('game-card-sm_dragon');
    expect(within(card).getByTestId('game-state-sm_dragon')).toHaveTextContent('Plays from your wallet');
    expect(within(card).queryByTestId('game-amount-sm_dragon')).not.toBeInTheDocument();
    expect(within(card).getAllByRole('button')).toHaveLength(1);
    expect(within(card).getByRole('button', { name: 'Play: Dragon Rising' })).toHaveTextContent('Play');
    expect(within(card).queryByRole('button', { name: /Open account|View data/ })).not.toBeInTheDocument();
    // A transfer game's card is as it was.
    expect(within(screen.getByTestId('game-card-pg')).getByRole('button', { name: 'View data: PG Soft' })).toBeInTheDocument();
    expect(screen.getByTestId('game-amount-pg')).toHaveTextContent('0.10');
  });

  it('opens the game from the launch link in the window opened in the tap, busy from the tap on, with no transfer', async () => {
    const answer = held();
    const asked = serveLaunch(async () => {
      await answer.gate;
      return HttpResponse.json({ link: 'https://games.example/play?token=abc' });
    });
    const calls = countAccountCalls();
    const win = fakeWindow();
    const open = jest.spyOn(window, 'open').mockImplementation(() => win as unknown as Window);
    const { user } = renderHome();
    const play = await screen.findByRole('button', { name: 'Play: Dragon Rising' });
    expect(play).not.toHaveAttribute('aria-busy');
    await user.click(play);
    // The window is opened in the tap itself (popup blockers allow that), before the server has answered.
    expect(open).toHaveBeenCalledTimes(1);
    expect(play).toHaveAttribute('aria-busy', 'true');
    expect(play).toHaveAttribute('aria-disabled', 'true');
    await waitFor(() => expect(play).toHaveTextContent('Opening…'));
    await user.click(play); // a second tap while it opens does nothing
    answer.release();
    await waitFor(() => expect(win.location.href).toBe('https://games.example/play?token=abc'));
    expect(win.opener).toBeNull();
    expect(asked).toEqual(['sm_dragon en desktop']); // the player's language; jsdom has no touch screen
    expect(open).toHaveBeenCalledTimes(1);
    expect(calls).toEqual([]);
    await waitFor(() => expect(play).not.toHaveAttribute('aria-busy'));
    expect(play).toHaveTextContent('Play');
    expect(screen.queryByTestId('seamless-launch-notice')).not.toBeInTheDocument();
  });

  it('opens from the keyboard too, a link of our own origin as a whole URL', async () => {
    // The simulator's link is a path of our own origin: the waiting window (about:blank) gets it whole.
    serveLaunch(() => HttpResponse.json({ link: '/sim/hub88/game?token=t1&lang=en' }));
    const win = fakeWindow();
    jest.spyOn(window, 'open').mockImplementation(() => win as unknown as Window);
    const { user } = renderHome();
    const play = await screen.findByRole('button', { name: 'Play: Dragon Rising' });
    play.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(win.location.href).toBe(`${window.location.origin}/sim/hub88/game?token=t1&lang=en`));
  });

  it.each([
    ['SEAMLESS_OFF', 503, 'Dragon Rising did not open. Games that play from your wallet are not available right now. Please try again later.'],
    ['NO_GAME', 404, 'Dragon Rising did not open. Game not found.'],
    ['SELF_EXCLUDED', 403, 'Dragon Rising did not open. You have excluded yourself from play. You can only see your balance and statement and withdraw.'],
    ['PLAY_TIMEOUT', 403, 'Dragon Rising did not open. You are on a time-out. You can only see your balance and statement and withdraw.'],
  ])('a %s refusal is an alert that takes the focus; its window is closed; OK gives the focus back to Play', async (code, status, text) => {
    serveLaunch(() => errorResponse(code, status));
    const win = fakeWindow();
    jest.spyOn(window, 'open').mockImplementation(() => win as unknown as Window);
    const { user } = renderHome();
    const play = await screen.findByRole('button', { name: 'Play: Dragon Rising' });
    await user.click(play);
    const notice = await screen.findByTestId('seamless-launch-notice');
    expect(notice).toHaveAttribute('role', 'alert');
    await waitFor(() => expect(notice).toHaveTextContent(text));
    expect(notice).toHaveFocus();
    expect(win.close).toHaveBeenCalled();
    expect(win.location.href).toBe('');
    await user.click(within(notice).getByRole('button', { name: 'OK' }));
    expect(screen.queryByTestId('seamless-launch-notice')).not.toBeInTheDocument();
    expect(play).toHaveFocus();
  });

  it("past the session limit it says so, but leaves the focus to the session limit's own dialog", async () => {
    serveLaunch(() => errorResponse('SESSION_LIMIT', 403));
    jest.spyOn(window, 'open').mockImplementation(() => fakeWindow() as unknown as Window);
    const { user, store } = renderHome();
    await user.click(await screen.findByRole('button', { name: 'Play: Dragon Rising' }));
    const notice = await screen.findByTestId('seamless-launch-notice');
    await waitFor(() => expect(notice).toHaveTextContent('Dragon Rising did not open. You have reached the session time limit you set. Please log out.'));
    expect(notice).not.toHaveFocus();
    expect(selectLaunch(store.getState())).toMatchObject({ status: 'failed', code: 'SESSION_LIMIT' });
  });

  it('offers the link when the browser refused the window', async () => {
    serveLaunch(() => HttpResponse.json({ link: 'https://games.example/blocked' }));
    jest.spyOn(window, 'open').mockImplementation(() => null);
    const { user } = renderHome();
    await user.click(await screen.findByRole('button', { name: 'Play: Dragon Rising' }));
    const notice = await screen.findByTestId('seamless-launch-notice');
    expect(notice).toHaveAttribute('role', 'status');
    expect(notice).toHaveTextContent('Dragon Rising could not open in a new window.');
    const link = within(notice).getByRole('link', { name: 'Open Dragon Rising' });
    expect(link).toHaveAttribute('href', 'https://games.example/blocked');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
  });

  it('during a time-out or self-exclusion Play says so instead of launching', async () => {
    const asked = serveLaunch(() => HttpResponse.json({ link: 'https://games.example/x' }));
    const open = jest.spyOn(window, 'open');
    const onRefused = jest.fn();
    const { user } = renderWithProviders(<GameCard game={dragon} onView={jest.fn()} onRefused={onRefused} />, { preloadedState: accepted });
    await user.click(screen.getByRole('button', { name: 'Play: Dragon Rising' }));
    expect(onRefused).toHaveBeenCalledTimes(1);
    expect(open).not.toHaveBeenCalled();
    expect(asked).toEqual([]);
  });
});

describe('the seamless launch thunk', () => {
  it('launches only a seamless game, and one at a time', async () => {
    const asked = serveLaunch(() => HttpResponse.json({ link: 'https://games.example/t' }));
    const store = makeStore();
    const win = fakeWindow();
    const openWindow = jest.fn(() => ({ go: (link: string) => ((win.location.href = link), true), cancel: jest.fn() }));
    await store.dispatch(seamlessLaunched({ slot: slot('pg', { isActive: true }), locale: 'la', openingText: '…' }, openWindow));
    expect(openWindow).not.toHaveBeenCalled();
    // A touch screen asks for the aggregator's mobile client.
    Object.defineProperty(window, 'matchMedia', { configurable: true, value: (query: string) => ({ matches: query === '(pointer: coarse)' }) });
    try {
      const first = store.dispatch(seamlessLaunched({ slot: dragon, locale: 'la', openingText: '…' }, openWindow));
      await store.dispatch(seamlessLaunched({ slot: dragon, locale: 'la', openingText: '…' }, openWindow));
      await first;
    } finally {
      Reflect.deleteProperty(window, 'matchMedia'); // jsdom has none
    }
    expect(openWindow).toHaveBeenCalledTimes(1);
    expect(asked).toEqual(['sm_dragon la mobile']);
    expect(selectLaunch(store.getState())).toEqual({ status: 'opened', game: 'sm_dragon', target: 'web' });
  });
});

describe('selectSeamlessLaunchOutcome', () => {
  it("names a seamless card's failed or blocked launch, never a transfer game's (the game-account modal shows those)", () => {
    const store = makeStore();
    store.dispatch(walletApi.util.upsertQueryEntries([{ endpointName: 'getWallet', arg: undefined, value: withSeamless() }]));
    expect(selectSeamlessLaunchOutcome(store.getState())).toBeNull();
    store.dispatch(started({ game: 'sm_dragon', target: 'web', transfer: false }));
    expect(selectSeamlessLaunchOutcome(store.getState())).toBeNull(); // under way: the card's busy button says it
    store.dispatch(launchFailed({ code: 'SEAMLESS_OFF' }));
    expect(selectSeamlessLaunchOutcome(store.getState())).toEqual({ code: 'sm_dragon', name: 'Dragon Rising', failure: 'SEAMLESS_OFF', link: null });
    store.dispatch(started({ game: 'sm_dragon', target: 'web', transfer: false }));
    store.dispatch(linkReady({ link: 'https://g.example/x', opened: false }));
    expect(selectSeamlessLaunchOutcome(store.getState())).toEqual({ code: 'sm_dragon', name: 'Dragon Rising', failure: null, link: 'https://g.example/x' });
    store.dispatch(started({ game: 'pg', target: 'web', transfer: false }));
    store.dispatch(launchFailed({ code: 'NO_GAME' }));
    expect(selectSeamlessLaunchOutcome(store.getState())).toBeNull();
  });
});

describe('no transfer for a seamless game', () => {
  it('the transfer accounts leave it out, even were it marked active', () => {
    const store = makeStore();
    const wallet = walletResponse({ slots: [...walletResponse().slots, dragon, slot('sm_odd', { seamless: true, isActive: true, amount: 3 })] });
    store.dispatch(walletApi.util.upsertQueryEntries([{ endpointName: 'getWallet', arg: undefined, value: wallet }]));
    expect(selectTransferAccounts(store.getState()).map((account) => account.code)).toEqual(['WALLET', 'pg', 'joker2']);
  });

  it("the transfer modal's choices do not offer it", async () => {
    serveWallet(withSeamless);
    function Host() {
      const { data } = useGetWalletQuery();
      return data ? <TransferModal onClose={jest.fn()} /> : null;
    }
    renderWithProviders(<Host />);
    const dialog = await screen.findByRole('dialog', { name: 'Transfer' });
    for (const label of ['From', 'To']) {
      const options = Array.from((within(dialog).getByLabelText(label) as HTMLSelectElement).options).map((o) => o.value);
      expect(options).toEqual(['', 'WALLET', 'pg', 'joker2']);
    }
  });

  it("the server's SEAMLESS_GAME and SEAMLESS_OFF have texts in the wallet's screens", () => {
    expect(walletErrorText('SEAMLESS_GAME')).toBe('This game plays from your wallet: it has no game account and takes no transfer.');
    expect(walletErrorText('SEAMLESS_OFF')).toBe('Games that play from your wallet are not available right now. Please try again later.');
    expect(walletErrorText('NO_GAME')).toBe('Game not found.');
  });
});
