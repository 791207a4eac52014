import type { UnknownAction } from '@reduxjs/toolkit';
import { waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { makeStore } from '../../app/store';
import { sessionEnded } from '../../core/authEvents';
import { walletApi } from '../../core/walletApi';
import { mutationAction, type Phase } from '../../test/support/rtkActions';
import { errorResponse, server } from '../../test/support/server';
import { initialRefundFlow, refundLeft, refundReducer, selectRefundChanged, type RefundFlow } from './refundSlice';
import { receiveRequested, refundClosing, selectRefundFlow } from './refundStore';

/** The receive endpoint's own RTK Query actions. */
const receive = (phase: Phase, requestId: string, payload?: unknown): UnknownAction => mutationAction('receiveRefund', phase, requestId, undefined, payload);

const run = (actions: UnknownAction[], from: RefundFlow = initialRefundFlow) => actions.reduce(refundReducer, from);
const ready: RefundFlow = initialRefundFlow;
const receiving: RefundFlow = { status: 'receiving', requestId: 'r1' };
const received: RefundFlow = { status: 'received', amount: 80 };

describe('refund receive machine: transitions', () => {
  it('ready -> receiving when the receive is sent', () => {
    expect(run([receive('pending', 'r1')])).toEqual(receiving);
  });

  it('receiving -> received with the credited amount (the close flag)', () => {
    expect(run([receive('fulfilled', 'r1', { message: 'REFUND_SUCCESS', amount: 80 })], receiving)).toEqual(received);
    expect(run([receive('fulfilled', 'r1', { message: 'REFUND_SUCCESS', amount: '80' })], receiving)).toEqual(received);
    expect(run([receive('fulfilled', 'r1', undefined)], receiving)).toEqual({ status: 'received', amount: 0 });
  });

  it('receiving -> ready when refused (the red toast says why)', () => {
    expect(run([receive('rejected', 'r1', { status: 422, data: { message: 'REFUND_CONDITION' } })], receiving)).toEqual(ready);
  });

  it('the modal going or the session ending returns to ready from every state', () => {
    for (const from of [ready, receiving, received]) {
      expect(run([refundLeft()], from)).toEqual(ready);
      expect(run([sessionEnded('logout')], from)).toEqual(ready);
    }
  });

  it('only a received refund is the close flag', () => {
    expect([ready, receiving, received].map(selectRefundChanged)).toEqual([false, false, true]);
  });
});

describe('refund receive machine: refused events leave the state unchanged', () => {
  it.each<[string, RefundFlow, UnknownAction]>([
    ['a second receive while receiving', receiving, receive('pending', 'r2')],
    ['a receive after receiving (one per opening)', received, receive('pending', 'r2')],
    ["another request's answer (a stale one)", receiving, receive('fulfilled', 'r0', { message: 'REFUND_SUCCESS', amount: 1 })],
    ["another request's refusal", receiving, receive('rejected', 'r0', { status: 500, data: { message: 'INTERNAL_SERVER_ERROR' } })],
    ['an answer when ready', ready, receive('fulfilled', 'r1', { message: 'REFUND_SUCCESS', amount: 1 })],
    ['a refusal when ready', ready, receive('rejected', 'r1', { status: 422, data: { message: 'REFUND_CONDITION' } })],
    ['a refusal after receiving', received, receive('rejected', 'r1', { status: 422, data: { message: 'REFUND_CONDITION' } })],
    ['an answer after receiving', received, receive('fulfilled', 'r1', { message: 'REFUND_SUCCESS', amount: 1 })],
  ])('%s', (_name, from, event) => {
    expect(run([event], from)).toBe(from);
  });
});

describe('refund receive against the server', () => {
  const session = { session: { token: 'tok', remember: false, login: { status: 'loggedIn' as const } } };

  function fakeReceive() {
    const calls = { receive: 0, wallet: 0 };
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    server.use(
      http.get('/api/refund/receive', async () => {
        calls.receive += 1;
        await held;
        return HttpResponse.json({ message: 'REFUND_SUCCESS', amount: 125.5 });
      }),
      http.get('/api/wallet', () => {
        calls.wallet += 1;
        return HttpResponse.json({ profile: { name: 'Demo', username: '0812345678', _id: '1', coin: 0 }, bankAccount: { bankAccountName: 'D', bankAccountNo: '1', bankCode: 'KBANK', bank: { nameTH: 'ก', nameEN: 'K' } }, wallet: { amount: 0 }, invite: { amount: 0, success: 0, fail: 0 }, slots: [] });
      }),
    );
    return { calls, release: () => release() };
  }

  it('sends one receive; a second press while it runs, or after it, sends nothing', async () => {
    const store = makeStore(session);
    const fake = fakeReceive();
    const first = store.dispatch(receiveRequested());
    expect(first).not.toBeNull();
    expect(selectRefundFlow(store.getState())).toMatchObject({ status: 'receiving' });
    expect(store.dispatch(receiveRequested())).toBeNull();
    fake.release();
    await first;
    expect(selectRefundFlow(store.getState())).toEqual({ status: 'received', amount: 125.5 });
    expect(store.dispatch(receiveRequested())).toBeNull();
    expect(fake.calls.receive).toBe(1);
  });

  it('closing reloads the wallet only once a refund was received', async () => {
    const store = makeStore(session);
    const fake = fakeReceive();
    // A subscriber, as the home behind the modal is, so the invalidated wallet is fetched again.
    const wallet = store.dispatch(walletApi.endpoints.getWallet.initiate());
    await waitFor(() => expect(fake.calls.wallet).toBe(1));
    store.dispatch(refundClosing());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fake.calls.wallet).toBe(1);
    fake.release();
    await store.dispatch(receiveRequested());
    store.dispatch(refundClosing());
    await waitFor(() => expect(fake.calls.wallet).toBe(2));
    wallet.unsubscribe();
  });

  it('a refused receive returns to ready, so the player may try again', async () => {
    const store = makeStore(session);
    server.use(http.get('/api/refund/receive', () => errorResponse('REFUND_CONDITION', 422)));
    await store.dispatch(receiveRequested());
    expect(selectRefundFlow(store.getState())).toEqual(initialRefundFlow);
    expect(store.dispatch(receiveRequested())).not.toBeNull();
  });
});
