import type { UnknownAction } from '@reduxjs/toolkit';
import { mutationAction, type Phase } from '../../test/support/rtkActions';
import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { sessionEnded } from '../../core/authEvents';
import { makeStore } from '../../app/store';
import { errorResponse, server } from '../../test/support/server';
import {
  canSpin,
  failureDismissed,
  initialSpinState,
  prizeClosed,
  prizeDismissed,
  selectCoins,
  spinReducer,
  spinRequested,
  spinSkipped,
  wheelClosed,
  wheelStopped,
  type SpinState,
} from './spinSlice';
import { wheelApi, type SpinAnswer, type SpinPrize } from './wheelApi';

/** The spin endpoint's own RTK Query actions. */
const spin = (phase: Phase, requestId: string, payload?: unknown): UnknownAction => mutationAction('spin', phase, requestId, undefined, payload);

const prize: SpinPrize = { code: 'CASH50', label: '50 baht', remainingCoin: 2, couponId: 'c-1' };
const won = (result: SpinPrize = prize): SpinAnswer => ({ success: true, error: null, result });

const run = (actions: UnknownAction[], from: SpinState = initialSpinState) => actions.reduce(spinReducer, from);
const spinning = (requestId = 's1'): SpinState => ({ status: 'spinning', requestId, landing: null });
const landing = (requestId = 's1'): SpinState => ({ status: 'spinning', requestId, landing: prize });
const atPrize: SpinState = { status: 'prize', prize };
const failed: SpinState = { status: 'failed', code: 'NO_COIN' };

describe('spin machine: transitions', () => {
  it('idle -> spinning when a spin is sent', () => {
    expect(run([spin('pending', 's1')])).toEqual(spinning('s1'));
  });

  it('spinning -> spinning with the prize to land on, when the server answers', () => {
    expect(run([spin('fulfilled', 's1', won())], spinning('s1'))).toEqual(landing('s1'));
  });

  it('landing -> prize when the wheel stops', () => {
    expect(run([wheelStopped({ requestId: 's1' })], landing('s1'))).toEqual(atPrize);
  });

  it('spinning -> spinning, skipped, when the player skips; skipping means nothing outside a spin', () => {
    expect(run([spinSkipped()], spinning('s1'))).toEqual({ ...spinning('s1'), skipped: true });
    expect(run([spinSkipped(), spin('fulfilled', 's1', won())], spinning('s1'))).toEqual({ ...landing('s1'), skipped: true });
    expect(run([spinSkipped()], initialSpinState)).toBe(initialSpinState);
    expect(run([spinSkipped()], atPrize)).toBe(atPrize);
  });

  it('prize -> idle when the prize modal closes', () => {
    expect(run([prizeClosed()], atPrize)).toEqual(initialSpinState);
  });

  it('spinning -> failed with the server code; failed -> idle when the alert is dismissed', () => {
    const refused = run([spin('rejected', 's1', { status: 422, data: { message: 'WHEEL_INACTIVE' } })], spinning('s1'));
    expect(refused).toEqual({ status: 'failed', code: 'WHEEL_INACTIVE' });
    expect(run([failureDismissed()], refused)).toEqual(initialSpinState);
    expect(run([spin('rejected', 's1', { status: 'FETCH_ERROR', error: 'offline' })], spinning('s1'))).toEqual({ status: 'failed', code: 'NETWORK' });
  });

  it('a 200 that says the spin failed is a failure too', () => {
    expect(run([spin('fulfilled', 's1', { success: false, error: 'NO_COIN', result: null })], spinning('s1'))).toEqual({ status: 'failed', code: 'NO_COIN' });
    expect(run([spin('fulfilled', 's1', { success: false, error: null, result: null })], spinning('s1'))).toEqual({ status: 'failed', code: 'GENERIC' });
  });

  it('closing the wheel or ending the session returns to idle from every state', () => {
    for (const from of [initialSpinState, spinning(), landing(), atPrize, failed]) {
      expect(run([wheelClosed()], from)).toEqual(initialSpinState);
      expect(run([sessionEnded('logout')], from)).toEqual(initialSpinState);
    }
  });
});

describe('spin machine: refused events leave the state unchanged', () => {
  const cases: [string, SpinState, UnknownAction][] = [
    ['a second spin while waiting for the answer', spinning('s1'), spin('pending', 's2')],
    ['a second spin while landing', landing('s1'), spin('pending', 's2')],
    ['a spin while the prize shows', atPrize, spin('pending', 's2')],
    ['a spin while the failure shows', failed, spin('pending', 's2')],
    ['the answer to another spin', spinning('s1'), spin('fulfilled', 's2', won())],
    ['the refusal of another spin', spinning('s1'), spin('rejected', 's2', { status: 422, data: { message: 'NO_COIN' } })],
    ['a second answer while landing', landing('s1'), spin('fulfilled', 's1', won({ ...prize, code: 'OTHER' }))],
    ['a refusal while landing', landing('s1'), spin('rejected', 's1', { status: 500, data: { message: 'INTERNAL_SERVER_ERROR' } })],
    ['an answer in idle', initialSpinState, spin('fulfilled', 's1', won())],
    ['an answer at the prize', atPrize, spin('fulfilled', 's1', won())],
    ['the wheel stopping before the answer', spinning('s1'), wheelStopped({ requestId: 's1' })],
    ['the wheel stopping for another spin', landing('s1'), wheelStopped({ requestId: 's2' })],
    ['the wheel stopping in idle', initialSpinState, wheelStopped({ requestId: 's1' })],
    ['closing a prize that is not shown (idle)', initialSpinState, prizeClosed()],
    ['closing a prize that is not shown (spinning)', landing('s1'), prizeClosed()],
    ['dismissing a failure that is not shown', atPrize, failureDismissed()],
    ['dismissing a failure while spinning', spinning('s1'), failureDismissed()],
  ];
  it.each(cases)('%s', (_name, from, event) => {
    expect(run([event], from)).toBe(from);
  });
});

describe('spin guard (spec §4: ignored while spinning or with zero coins)', () => {
  it('spins only in idle with coins left', () => {
    expect(canSpin(initialSpinState, 1)).toBe(true);
    expect(canSpin(initialSpinState, 0)).toBe(false);
    expect(canSpin(initialSpinState, -1)).toBe(false);
    expect(canSpin(initialSpinState, null)).toBe(false);
    for (const busy of [spinning(), landing(), atPrize, failed]) expect(canSpin(busy, 5)).toBe(false);
  });
});

describe('spin requests against the server', () => {
  const setup = (userCoin: number) => ({
    result: {
      activeSpinwheel: { name: { en: 'Lucky wheel' }, slices: [{ code: 'CASH50', label: '50 baht', bgColor: '#ff0000', textColor: '#ffffff', prize: { htmlDescription: { en: '50 baht' } } }] },
      userCoin,
    },
  });

  function fakeWheel(coins: number) {
    let userCoin = coins;
    let release: () => void = () => undefined;
    const calls = { spin: 0, setup: 0 };
    let hold = false;
    server.use(
      http.get('/api/spinwheel/setup', () => {
        calls.setup += 1;
        return HttpResponse.json(setup(userCoin));
      }),
      http.post('/api/spinwheel/spin', async () => {
        calls.spin += 1;
        if (hold) await new Promise<void>((resolve) => (release = resolve));
        if (userCoin <= 0) return errorResponse('NO_COIN', 422);
        userCoin -= 1;
        return HttpResponse.json(won({ ...prize, remainingCoin: userCoin }));
      }),
    );
    return {
      calls,
      holdSpins() {
        hold = true;
      },
      release: () => release(),
    };
  }

  async function storeWithSetup(coins: number) {
    const store = makeStore({ session: { token: 'tok', remember: false, login: { status: 'loggedIn' } } });
    const fake = fakeWheel(coins);
    await store.dispatch(wheelApi.endpoints.getSpinSetup.initiate());
    return { store, fake };
  }

  it('sends nothing with zero coins', async () => {
    const { store, fake } = await storeWithSetup(0);
    expect(store.dispatch(spinRequested())).toBeNull();
    expect(store.getState().spin).toEqual(initialSpinState);
    expect(fake.calls.spin).toBe(0);
  });

  it('sends one spin; a second press while it runs sends nothing', async () => {
    const { store, fake } = await storeWithSetup(3);
    fake.holdSpins();
    const first = store.dispatch(spinRequested());
    expect(first).not.toBeNull();
    expect(store.getState().spin.status).toBe('spinning');
    expect(store.dispatch(spinRequested())).toBeNull();
    await waitFor(() => expect(fake.calls.spin).toBe(1));
    fake.release();
    await first?.unwrap();
    const state = store.getState().spin;
    expect(state).toMatchObject({ status: 'spinning', landing: { code: 'CASH50', remainingCoin: 2 } });
    expect(fake.calls.spin).toBe(1);
    // Still landing: pressing again sends nothing.
    expect(store.dispatch(spinRequested())).toBeNull();
    expect(fake.calls.spin).toBe(1);
  });

  it('shows what the spin left once landed, and reloads the setup when the prize closes', async () => {
    const { store, fake } = await storeWithSetup(3);
    await store.dispatch(spinRequested())?.unwrap();
    expect(selectCoins(store.getState())).toBe(3);
    const state = store.getState().spin;
    if (state.status !== 'spinning') throw new Error('not spinning');
    store.dispatch(wheelStopped({ requestId: state.requestId }));
    expect(selectCoins(store.getState())).toBe(2);
    const setups = fake.calls.setup;
    // A subscriber, as the open wheel modal is, so the invalidated setup is fetched again.
    const sub = store.dispatch(wheelApi.endpoints.getSpinSetup.initiate());
    store.dispatch(prizeDismissed());
    expect(store.getState().spin).toEqual(initialSpinState);
    expect(selectCoins(store.getState())).toBe(2);
    await waitFor(() => expect(fake.calls.setup).toBe(setups + 1));
    sub.unsubscribe();
  });

  it('a refused spin is the failure state with the code', async () => {
    const { store } = await storeWithSetup(1);
    server.use(http.post('/api/spinwheel/spin', () => errorResponse('WHEEL_INACTIVE', 422)));
    await store.dispatch(spinRequested())?.unwrap().catch(() => undefined);
    expect(store.getState().spin).toEqual({ status: 'failed', code: 'WHEEL_INACTIVE' });
    // No spin until the alert is dismissed.
    expect(store.dispatch(spinRequested())).toBeNull();
    store.dispatch(failureDismissed());
    expect(store.dispatch(spinRequested())).not.toBeNull();
  });
});
