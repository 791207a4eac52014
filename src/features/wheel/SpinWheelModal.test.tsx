import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderApp, renderWithProviders } from '../../test/support/render';
import { server } from '../../test/support/server';
import { sliceAtPointer } from './landing';
import SpinWheelModal from './SpinWheelModal';
import { coupon, fakeWheelServer, recordCanvas, setReducedMotion, SLICES } from '../../test/support/wheel';

const session = { session: { token: 'tok-1', remember: false, login: { status: 'loggedIn' as const } } };
const accepted = { ...session, prefs: { ...initialPrefs, locale: 'en' as const, agreementAccepted: true } };

let canvas: ReturnType<typeof recordCanvas>;
beforeEach(() => {
  canvas = recordCanvas();
  setReducedMotion(true);
});
afterEach(() => {
  canvas.restore();
  setReducedMotion(null);
  jest.restoreAllMocks();
  jest.useRealTimers();
});

function openWheel(fake = fakeWheelServer()) {
  const onClose = jest.fn();
  const view = renderWithProviders(<SpinWheelModal onClose={onClose} />, { preloadedState: { ...session, modals: { stack: ['spinWheel'] } } });
  return { ...view, fake, onClose };
}

/** The wheel's turn, read from the canvas's transform. */
const rotationOf = (element: HTMLElement) => Number(/rotate\(([-\d.e]+)deg\)/.exec(element.style.transform)?.[1] ?? 0);

describe('spin wheel modal', () => {
  it('shows the wheel of the setup on a 350 px canvas at the screen density, with a text alternative and the coin count', async () => {
    Object.defineProperty(window, 'devicePixelRatio', { configurable: true, value: 2 });
    try {
      openWheel();
      const dialog = await screen.findByRole('dialog', { name: 'Spin wheel' });
      const wheel = await within(dialog).findByRole('img', { name: 'Prize wheel: Lucky wheel' });
      expect(wheel.tagName).toBe('CANVAS');
      expect(wheel).toHaveAttribute('width', '700');
      expect(wheel).toHaveAttribute('height', '700');
      expect(canvas.drawn.find((call) => call.method === 'setTransform')?.args).toEqual([2, 0, 0, 2, 0, 0]);
      expect(canvas.drawn.filter((call) => call.method === 'fillText').map((call) => call.args[0])).toEqual(SLICES.map((s) => s.label));
      // The slices as text for screen readers.
      const prizes = within(dialog).getByRole('list', { name: 'Prizes on the wheel' });
      expect(wheel).toHaveAttribute('aria-describedby', prizes.id);
      expect(within(prizes).getAllByRole('listitem').map((item) => item.textContent)).toEqual(SLICES.map((s) => s.label));
      expect(within(dialog).getByTestId('wheel-coins')).toHaveTextContent('You have 3 coins');
      expect(within(dialog).getByRole('button', { name: 'Spin' })).not.toHaveAttribute('aria-disabled');
    } finally {
      Reflect.deleteProperty(window, 'devicePixelRatio');
    }
  });

  it('spins from the keyboard: lands on the returned code, announces it, shows the prize (sanitized) and the coins left', async () => {
    const { user, fake } = openWheel(fakeWheelServer({ draws: 'CASH100' }));
    const spin = await screen.findByRole('button', { name: 'Spin' });
    spin.focus();
    await user.keyboard('{Enter}');
    const prize = await screen.findByRole('dialog', { name: 'Your prize' });
    expect(fake.calls.spin).toBe(1);
    expect(within(prize).getByText('You won 100 baht!')).toBeInTheDocument();
    expect(within(prize).getByText('You get 100 baht')).toBeInTheDocument();
    expect(prize.innerHTML).not.toContain('<script');
    expect(within(prize).getByTestId('wheel-prize-coins')).toHaveTextContent('2 coins left');
    expect(screen.getByTestId('wheel-announcement')).toHaveTextContent('The wheel stopped on 100 baht.');
    expect(screen.getByTestId('wheel-coins')).toHaveTextContent('You have 2 coins');
    // The pointer (top) is inside the 100 baht slice.
    expect(SLICES[sliceAtPointer(rotationOf(screen.getByTestId('wheel-canvas')), SLICES.length)].code).toBe('CASH100');
    // The new coupon is listed.
    await waitFor(() => expect(screen.getAllByTestId('coupon')[0]).toHaveTextContent('100 baht'));
  });

  it('closing the prize modal reloads the setup, and the next spin lands on its own code from where the wheel stopped', async () => {
    const fake = fakeWheelServer({ draws: 'COIN2' });
    const { user } = openWheel(fake);
    await user.click(await screen.findByRole('button', { name: 'Spin' }));
    const prize = await screen.findByRole('dialog', { name: 'Your prize' });
    const first = rotationOf(screen.getByTestId('wheel-canvas'));
    const setups = fake.calls.setup;
    await user.click(within(prize).getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(fake.calls.setup).toBe(setups + 1));
    expect(screen.queryByRole('dialog', { name: 'Your prize' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Spin' })).toHaveFocus();
    expect(screen.getByTestId('wheel-coins')).toHaveTextContent('You have 2 coins');
    await user.click(screen.getByRole('button', { name: 'Spin' }));
    await screen.findByRole('dialog', { name: 'Your prize' });
    const second = rotationOf(screen.getByTestId('wheel-canvas'));
    expect(SLICES[sliceAtPointer(second, SLICES.length)].code).toBe('COIN2');
    // Forward from the first stop, by whole extra turns.
    expect(second - (first % 360)).toBeGreaterThanOrEqual(720);
    expect(fake.calls.spin).toBe(2);
  });

  it('ignores a spin with zero coins: nothing is sent, and the player is told why', async () => {
    const { user, fake } = openWheel(fakeWheelServer({ coins: 0 }));
    const spin = await screen.findByRole('button', { name: 'Spin' });
    expect(screen.getByTestId('wheel-coins')).toHaveTextContent('You have 0 coins');
    expect(spin).toHaveAttribute('aria-disabled', 'true');
    expect(spin).toHaveAccessibleDescription('You have no coins to spin with. Deposit to earn coins.');
    await user.click(spin);
    expect(fake.calls.spin).toBe(0);
    expect(screen.queryByRole('dialog', { name: 'Your prize' })).not.toBeInTheDocument();
  });

  it('ignores a spin while spinning: one request however often it is pressed', async () => {
    const fake = fakeWheelServer();
    const release = fake.holdAnswers();
    const { user } = openWheel(fake);
    const spin = await screen.findByRole('button', { name: 'Spin' });
    await user.click(spin);
    await waitFor(() => expect(spin).toHaveAttribute('aria-busy', 'true'));
    expect(spin).toHaveAttribute('aria-disabled', 'true');
    await user.click(spin);
    await user.click(spin);
    release();
    await screen.findByRole('dialog', { name: 'Your prize' });
    expect(fake.calls.spin).toBe(1);
    expect(spin).toHaveAttribute('aria-busy', 'false');
  });

  it.each([
    ['NO_COIN', 'You have no coins to spin with. Deposit to earn coins.'],
    ['WHEEL_INACTIVE', 'The prize wheel is not available right now.'],
  ])('a refused spin (%s) is an error alert with the translated code, no toast; OK gives the wheel back', async (code, text) => {
    const fake = fakeWheelServer();
    fake.refuseNext('spin', 422, code);
    const { user } = openWheel(fake);
    await user.click(await screen.findByRole('button', { name: 'Spin' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The spin did not work');
    expect(alert).toHaveTextContent(text);
    expect(document.querySelector('.notistack-MuiContent-error')).toBeNull();
    expect(screen.queryByRole('dialog', { name: 'Your prize' })).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Spin' })).not.toHaveAttribute('aria-disabled');
  });

  it('turns for the length of the spin plan (4 s in all with 2 turns at the low end) before the prize opens', async () => {
    setReducedMotion(false);
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const fake = fakeWheelServer({ draws: 'JACKPOT' });
    const { store } = openWheel(fake);
    const spin = await screen.findByRole('button', { name: 'Spin' });
    act(() => spin.click());
    // The plan's dice, once the request (whose id also comes from Math.random) is under way.
    jest.spyOn(Math, 'random').mockReturnValue(0);
    await waitFor(() => {
      expect(store.getState().spin).toMatchObject({ status: 'spinning', landing: { code: 'JACKPOT' } });
      expect(screen.getByTestId('wheel-announcement')).toHaveTextContent('The wheel is spinning…');
    });
    const wheel = screen.getByTestId('wheel-canvas');
    act(() => jest.advanceTimersByTime(2000));
    const midway = rotationOf(wheel);
    expect(midway).toBeGreaterThan(360);
    expect(screen.queryByRole('dialog', { name: 'Your prize' })).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1900));
    expect(rotationOf(wheel)).toBeGreaterThan(midway);
    expect(screen.queryByRole('dialog', { name: 'Your prize' })).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(200));
    expect(screen.getByRole('dialog', { name: 'Your prize' })).toHaveTextContent('You won Jackpot 1000!');
    // 2 extra turns, then on to the middle of the last slice (offset 0.4 of a slice back from random() = 0).
    expect(SLICES[sliceAtPointer(rotationOf(wheel), SLICES.length)].code).toBe('JACKPOT');
    expect(rotationOf(wheel)).toBeGreaterThanOrEqual(720);
  });

  it('says when the wheel is not active, and still lists the coupons', async () => {
    openWheel(fakeWheelServer({ slices: null, coupons: [coupon('c-1')] }));
    expect(await screen.findByTestId('wheel-inactive')).toHaveTextContent('The prize wheel is not available right now.');
    expect(screen.queryByRole('button', { name: 'Spin' })).not.toBeInTheDocument();
    expect(await screen.findByTestId('coupon')).toHaveTextContent('Cash prize c-1');
  });

  it('shows a loader only when the setup takes longer than 200 ms', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const fake = fakeWheelServer();
    server.use(
      http.get('/api/spinwheel/setup', async () => {
        await held;
        return HttpResponse.json({ result: { activeSpinwheel: { name: { en: 'Lucky wheel' }, slices: SLICES }, userCoin: 1 } });
      }),
    );
    try {
      openWheel(fake);
      act(() => jest.advanceTimersByTime(199));
      expect(screen.queryByTestId('wheel-loading')).not.toBeInTheDocument();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.getByTestId('wheel-loading')).toHaveTextContent('Loading…');
      answer();
      expect(await screen.findByTestId('wheel-coins')).toHaveTextContent('You have 1 coin');
      expect(screen.queryByTestId('wheel-loading')).not.toBeInTheDocument();
    } finally {
      answer();
    }
  });

  it('opens from the home widget when the wheel is active, and closing it reloads the wallet', async () => {
    const fake = fakeWheelServer();
    server.use(http.get('/api/spinwheel/active', () => HttpResponse.json({ isActive: true })));
    const { user } = renderApp('/user/home', { preloadedState: accepted });
    await user.click(await screen.findByRole('button', { name: /^Spin wheel/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Spin wheel' });
    await within(dialog).findByRole('img', { name: 'Prize wheel: Lucky wheel' });
    const wallets = fake.calls.wallet;
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(fake.calls.wallet).toBe(wallets + 1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

describe('labels in the player language (issue 40 item 13)', () => {
  it('draws and lists each slice by its label in Lao, the one label where a slice has none', async () => {
    const lao: Record<string, string> = { CASH10: '10 ບາດ', CASH50: '50 ບາດ' };
    const slices = SLICES.map((s) => (lao[s.code] ? { ...s, labels: { th: `${s.label} th`, la: lao[s.code], en: s.label } } : s));
    fakeWheelServer({ slices });
    renderWithProviders(<SpinWheelModal onClose={jest.fn()} />, {
      preloadedState: { ...session, prefs: { ...initialPrefs, locale: 'la' as const }, modals: { stack: ['spinWheel'] } },
    });
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(canvas.drawn.some((call) => call.method === 'fillText')).toBe(true));
    const expected = slices.map((s) => lao[s.code] ?? s.label);
    expect(canvas.drawn.filter((call) => call.method === 'fillText').map((call) => call.args[0])).toEqual(expected);
    expect(within(dialog).getByRole('list').querySelectorAll('li')[0].textContent).toBe('10 ບາດ');
    expect([...within(dialog).getByRole('list').querySelectorAll('li')].map((li) => li.textContent)).toEqual(expected);
  });
});

describe('the spin finishes (issue 40 item 11)', () => {
  /** Spins with the animation on and fake timers; resolves once the answer is in and the wheel is turning. */
  async function spinning(fake = fakeWheelServer({ draws: 'JACKPOT' })) {
    setReducedMotion(false);
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    const view = openWheel(fake);
    await screen.findByTestId('coupons-empty');
    const spin = await screen.findByRole('button', { name: 'Spin' });
    act(() => spin.click());
    jest.spyOn(Math, 'random').mockReturnValue(0);
    await waitFor(() => {
      expect(view.store.getState().spin).toMatchObject({ status: 'spinning', landing: { code: 'JACKPOT' } });
      expect(screen.getByTestId('wheel-announcement')).toHaveTextContent('The wheel is spinning…');
    });
    return view;
  }

  it('holds the new coupon back while the wheel turns, and lists it once the wheel lands', async () => {
    const { fake } = await spinning();
    const asked = fake.calls.coupons.length;
    act(() => jest.advanceTimersByTime(3000));
    // Let any refetch the spin could have caused come back: the list still shows no prize.
    await act(async () => {
      await Promise.resolve();
    });
    expect(fake.calls.coupons).toHaveLength(asked);
    expect(screen.queryByTestId('coupon')).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(1100));
    expect(screen.getByRole('dialog', { name: 'Your prize' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('coupon')).toHaveTextContent('Jackpot 1000'));
  });

  it('skips to the landing at once: the prize opens, the pointer on its slice, without waiting out the spin', async () => {
    await spinning();
    act(() => jest.advanceTimersByTime(500));
    act(() => screen.getByRole('button', { name: 'Skip' }).click());
    act(() => jest.advanceTimersByTime(50));
    expect(screen.getByRole('dialog', { name: 'Your prize' })).toHaveTextContent('You won Jackpot 1000!');
    expect(SLICES[sliceAtPointer(rotationOf(screen.getByTestId('wheel-canvas')), SLICES.length)].code).toBe('JACKPOT');
    expect(screen.queryByRole('button', { name: 'Skip' })).not.toBeInTheDocument();
  });
});
});
