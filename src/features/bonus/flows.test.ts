import type { UnknownAction } from '@reduxjs/toolkit';

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
