import type { UnknownAction } from '@reduxjs/toolkit';

import { makeStore } from '../../app/store';
import { sessionEnded } from '../../core/authEvents';
import { bonus, fakeBonusServer, playerSession } from '../../test/support/bonus';
import { server } from '../../test/support/server';
import {
  activationAnswered,
  activationDismissed,
  activationFlowReducer,
  activationLeft,
  activationRefused,
  activationStarted,
  initialActivationFlow,
  type ActivationFlow,
} from './activationFlow';
import { bonusReceived, selectActivationFlow } from './bonusStore';

describe('bonus activation flow: transition table', () => {
  const ready: ActivationFlow = initialActivationFlow;
  const activating: ActivationFlow = { status: 'activating', requestId: 'r1' };
  const activated: ActivationFlow = { status: 'activated', amount: 250 };
  const failed: ActivationFlow = { status: 'failed', error: 'BONUS_MAX_CLAIMED' };
  const run = (from: ActivationFlow, event: UnknownAction) => activationFlowReducer(from, event);

  it('ready -> activating -> activated or failed; failed -> activating again or ready when dismissed', () => {
    expect(run(ready, activationStarted({ requestId: 'r1' }))).toEqual(activating);
    expect(run(activating, activationAnswered({ requestId: 'r1', amount: 250 }))).toEqual(activated);
    expect(run(activating, activationRefused({ requestId: 'r1', error: 'BONUS_MAX_CLAIMED' }))).toEqual(failed);
    expect(run(failed, activationStarted({ requestId: 'r1' }))).toEqual(activating);
    expect(run(failed, activationDismissed())).toEqual(ready);
  });

  it('the modal going or the session ending returns to ready from every state', () => {
    for (const from of [activating, activated, failed]) {
      expect(run(from, activationLeft())).toEqual(ready);
      expect(run(from, sessionEnded('logout'))).toEqual(ready);
    }
  });

  describe('refused events leave the state as it is', () => {
    it.each<[string, ActivationFlow, UnknownAction]>([
      ['a second start while activating', activating, activationStarted({ requestId: 'r2' })],
      ['a start after success', activated, activationStarted({ requestId: 'r2' })],
      ["another request's answer", activating, activationAnswered({ requestId: 'r0', amount: 250 })],
      ["another request's failure", activating, activationRefused({ requestId: 'r0', error: 'BONUS_FULL' })],
      ['an answer when ready', ready, activationAnswered({ requestId: 'r1', amount: 250 })],
      ['a failure when ready', ready, activationRefused({ requestId: 'r1', error: 'BONUS_FULL' })],
      ['a failure after success', activated, activationRefused({ requestId: 'r1', error: 'BONUS_FULL' })],
      ['dismiss when ready', ready, activationDismissed()],
      ['dismiss while activating', activating, activationDismissed()],
      ['dismiss after success', activated, activationDismissed()],
      ['the modal going when ready', ready, activationLeft()],
      ['the session ending when ready', ready, sessionEnded('logout')],
    ])('%s', (_name, from, event) => {
      expect(run(from, event)).toBe(from);
    });
  });
});

describe('bonus activation flow in the store (state.bonusActivation, the call in bonusStore.ts)', () => {
  const storeWith = () => {
    const fake = fakeBonusServer({ bonuses: [bonus('WELCOME')] });
    server.use(...fake.handlers);
    return { fake, store: makeStore(playerSession) };
  };

  it('receive -> activated with the amount the answer credited', async () => {
    const { fake, store } = storeWith();
    expect(selectActivationFlow(store.getState())).toEqual(initialActivationFlow);
    await store.dispatch(bonusReceived('WELCOME'));
    expect(store.getState().bonusActivation).toEqual({ status: 'activated', amount: 250 });
    // One receive per opening: after success nothing more is sent.
    await store.dispatch(bonusReceived('WELCOME'));
    expect(fake.calls.activate).toEqual(['WELCOME']);
  });

  it('a refusal is failed with its code, and receiving may be tried again', async () => {
    const { fake, store } = storeWith();
    fake.refuseNext('activate', 422, 'BONUS_MAX_CLAIMED');
    await store.dispatch(bonusReceived('WELCOME'));
    expect(selectActivationFlow(store.getState())).toEqual({ status: 'failed', error: 'BONUS_MAX_CLAIMED' });
    await store.dispatch(bonusReceived('WELCOME'));
    expect(selectActivationFlow(store.getState())).toEqual({ status: 'activated', amount: 250 });
    expect(fake.calls.activate).toEqual(['WELCOME', 'WELCOME']);
  });

  it('sends nothing while activating; an answer after the modal went changes nothing', async () => {
    const { fake, store } = storeWith();
    const first = store.dispatch(bonusReceived('WELCOME'));
    await store.dispatch(bonusReceived('WELCOME'));
    store.dispatch(activationLeft());
    await first;
    expect(selectActivationFlow(store.getState())).toEqual(initialActivationFlow);
    expect(fake.calls.activate).toEqual(['WELCOME']);
  });
});
