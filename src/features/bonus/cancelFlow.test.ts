import type { UnknownAction } from '@reduxjs/toolkit';

import { makeStore } from '../../app/store';
import { sessionEnded } from '../../core/authEvents';
import { connectToaster, type Toast } from '../../core/notify';
import { fakeBonusServer, playerSession, progress } from '../../test/support/bonus';
import { server } from '../../test/support/server';
import { cancelConfirmed, selectCancelFlow } from './bonusStore';
import {
  cancelAsked,
  cancelDeclined,
  cancelFlowReducer,
  cancelLeft,
  clearAnswered,
  clearRefused,
  clearStarted,
  failureDismissed,
  initialCancelFlow,
  type CancelFlow,
} from './cancelFlow';

describe('cancel bonus flow: transition table', () => {
  const idle: CancelFlow = initialCancelFlow;
  const confirming: CancelFlow = { status: 'confirming' };
  const clearing: CancelFlow = { status: 'clearing', requestId: 'c1' };
  const failed: CancelFlow = { status: 'failed', error: 'NO_DATA' };
  const run = (from: CancelFlow, event: UnknownAction) => cancelFlowReducer(from, event);

  it('idle -> confirming -> idle when declined, or clearing -> idle (cleared) / failed -> idle (dismissed)', () => {
    expect(run(idle, cancelAsked())).toEqual(confirming);
    expect(run(confirming, cancelDeclined())).toEqual(idle);
    expect(run(confirming, clearStarted({ requestId: 'c1' }))).toEqual(clearing);
    expect(run(clearing, clearAnswered({ requestId: 'c1' }))).toEqual(idle);
    expect(run(clearing, clearRefused({ requestId: 'c1', error: 'NO_DATA' }))).toEqual(failed);
    expect(run(failed, failureDismissed())).toEqual(idle);
  });

  it('the panel going or the session ending returns to idle from every state', () => {
    for (const from of [confirming, clearing, failed]) {
      expect(run(from, cancelLeft())).toEqual(idle);
      expect(run(from, sessionEnded('logout'))).toEqual(idle);
    }
  });

  describe('refused events leave the state as it is', () => {
    it.each<[string, CancelFlow, UnknownAction]>([
      ['asked while confirming', confirming, cancelAsked()],
      ['asked while clearing', clearing, cancelAsked()],
      ['asked while the failure shows', failed, cancelAsked()],
      ['clearing without a confirm', idle, clearStarted({ requestId: 'c1' })],
      ['a second clear while clearing', clearing, clearStarted({ requestId: 'c2' })],
      ['clearing from the failure dialog', failed, clearStarted({ requestId: 'c2' })],
      ['declined while clearing (the answer decides)', clearing, cancelDeclined()],
      ['declined when idle', idle, cancelDeclined()],
      ["another request's answer", clearing, clearAnswered({ requestId: 'c0' })],
      ["another request's failure", clearing, clearRefused({ requestId: 'c0', error: 'NO_DATA' })],
      ['an answer when idle', idle, clearAnswered({ requestId: 'c1' })],
      ['a failure while confirming', confirming, clearRefused({ requestId: 'c1', error: 'NO_DATA' })],
      ['dismissing when idle', idle, failureDismissed()],
      ['dismissing while confirming', confirming, failureDismissed()],
      ['dismissing while clearing', clearing, failureDismissed()],
      ['the panel going when idle', idle, cancelLeft()],
      ['the session ending when idle', idle, sessionEnded('logout')],
    ])('%s', (_name, from, event) => {
      expect(run(from, event)).toBe(from);
    });
  });
});

describe('cancel bonus flow in the store (state.bonusCancel, the call in bonusStore.ts)', () => {
  let toasts: Toast[];
  let disconnect: () => void;
  beforeEach(() => {
    toasts = [];
    disconnect = connectToaster((toast) => toasts.push(toast));
  });
  afterEach(() => disconnect());

  const storeWith = () => {
    const fake = fakeBonusServer({ active: { status: true, type: 'limit', progress: progress() } });
    server.use(...fake.handlers);
    return { fake, store: makeStore(playerSession) };
  };

  it('asked -> confirmed: cleared, back to idle, and the toast says the server message', async () => {
    const { fake, store } = storeWith();
    store.dispatch(cancelAsked());
    expect(store.getState().bonusCancel).toEqual({ status: 'confirming' });
    await store.dispatch(cancelConfirmed());
    expect(selectCancelFlow(store.getState())).toEqual(initialCancelFlow);
    expect(fake.calls.clear).toBe(1);
    expect(toasts).toEqual([{ variant: 'success', message: 'The bonus has been cancelled.' }]);
  });

  it('a refusal is the failure dialog with its code, no toast', async () => {
    const { fake, store } = storeWith();
    fake.refuseNext('clear', 500, 'INTERNAL_SERVER_ERROR');
    store.dispatch(cancelAsked());
    await store.dispatch(cancelConfirmed());
    expect(selectCancelFlow(store.getState())).toEqual({ status: 'failed', error: 'INTERNAL_SERVER_ERROR' });
    expect(toasts).toEqual([]);
  });

  it('sends nothing without a confirm dialog, or while clearing; an answer after the panel went changes nothing', async () => {
    const { fake, store } = storeWith();
    await store.dispatch(cancelConfirmed());
    expect(fake.calls.clear).toBe(0);
    store.dispatch(cancelAsked());
    const first = store.dispatch(cancelConfirmed());
    await store.dispatch(cancelConfirmed());
    store.dispatch(cancelLeft());
    await first;
    expect(selectCancelFlow(store.getState())).toEqual(initialCancelFlow);
    expect(fake.calls.clear).toBe(1);
  });
});
