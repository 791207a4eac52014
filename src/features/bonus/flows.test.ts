import type { UnknownAction } from '@reduxjs/toolkit';

import {
  activationAnswered,
  activationDismissed,
  activationFlowReducer,
  activationRefused,
  activationStarted,
  initialActivationFlow,
  type ActivationFlow,
} from './activationFlow';
import {
  cancelAsked,
  cancelDeclined,
  cancelFlowReducer,
  clearAnswered,
  clearRefused,
  clearStarted,
  failureDismissed,
  initialCancelFlow,
  type CancelFlow,
} from './cancelFlow';

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
    ])('%s', (_name, from, event) => {
      expect(run(from, event)).toBe(from);
    });
  });
});

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
    ])('%s', (_name, from, event) => {
      expect(run(from, event)).toBe(from);
    });
  });
});
