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
import type { Promotion } from './bonusApi';
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
import {
  closed,
  initialPromotionFlow,
  promotionFlowReducer,
  receiveAnswered,
  receiveRefused,
  receiveStarted,
  searchAnswered,
  searchRefused,
  searchStarted,
  type PromotionFlow,
} from './promotionFlow';

const promotion: Promotion = { code: 'WELCOME50', percentFail: 30, description: { th: 'ไทย', la: 'ລາວ', en: 'Welcome' } };

describe('promotion flow: transition table', () => {
  const idle: PromotionFlow = initialPromotionFlow;
  const searching: PromotionFlow = { status: 'searching', code: 'WELCOME50', requestId: 's1' };
  const found: PromotionFlow = { status: 'found', code: 'WELCOME50', promotion };
  const notFound: PromotionFlow = { status: 'notFound', code: 'NOPE' };
  const searchFailed: PromotionFlow = { status: 'searchFailed', code: 'WELCOME50', error: 'NETWORK' };
  const receiving: PromotionFlow = { status: 'receiving', code: 'WELCOME50', promotion, requestId: 'a1' };
  const receiveFailed: PromotionFlow = { status: 'receiveFailed', code: 'WELCOME50', promotion, error: 'PROMOTION_RECEIVED' };
  const run = (from: PromotionFlow, event: UnknownAction) => promotionFlowReducer(from, event);

  it('idle -> searching with the code', () => {
    expect(run(idle, searchStarted({ code: 'WELCOME50', requestId: 's1' }))).toEqual(searching);
  });

  it('searching -> found / notFound (NO_PROMOTION, NO_DATA) / searchFailed (anything else)', () => {
    expect(run(searching, searchAnswered({ requestId: 's1', promotion }))).toEqual(found);
    expect(run(searching, searchRefused({ requestId: 's1', error: 'NO_PROMOTION' }))).toEqual({ status: 'notFound', code: 'WELCOME50' });
    expect(run(searching, searchRefused({ requestId: 's1', error: 'NO_DATA' }))).toEqual({ status: 'notFound', code: 'WELCOME50' });
    expect(run(searching, searchRefused({ requestId: 's1', error: 'NETWORK' }))).toEqual(searchFailed);
  });

  it('notFound and searchFailed may search again', () => {
    expect(run(notFound, searchStarted({ code: 'WELCOME50', requestId: 's1' }))).toEqual(searching);
    expect(run(searchFailed, searchStarted({ code: 'WELCOME50', requestId: 's1' }))).toEqual(searching);
  });

  it('found -> receiving -> idle (the modal closes) or receiveFailed, which may try again', () => {
    expect(run(found, receiveStarted({ requestId: 'a1' }))).toEqual(receiving);
    expect(run(receiving, receiveAnswered({ requestId: 'a1' }))).toEqual(idle);
    expect(run(receiving, receiveRefused({ requestId: 'a1', error: 'PROMOTION_RECEIVED' }))).toEqual(receiveFailed);
    expect(run(receiveFailed, receiveStarted({ requestId: 'a1' }))).toEqual(receiving);
  });

  it('closing goes back to idle from any open state', () => {
    for (const from of [searching, found, notFound, searchFailed, receiving, receiveFailed]) expect(run(from, closed())).toEqual(idle);
  });

  describe('refused events leave the state as it is', () => {
    it.each<[string, PromotionFlow, UnknownAction]>([
      ['an empty code', idle, searchStarted({ code: '', requestId: 's1' })],
      ['a search while searching', searching, searchStarted({ code: 'OTHER', requestId: 's2' })],
      ['a search while a promotion is shown', found, searchStarted({ code: 'OTHER', requestId: 's2' })],
      ['a search while receiving', receiving, searchStarted({ code: 'OTHER', requestId: 's2' })],
      ['a search after a refused receive', receiveFailed, searchStarted({ code: 'OTHER', requestId: 's2' })],
      ["another search's answer", searching, searchAnswered({ requestId: 's0', promotion })],
      ["another search's failure", searching, searchRefused({ requestId: 's0', error: 'NO_PROMOTION' })],
      ['an answer when idle (closed meanwhile)', idle, searchAnswered({ requestId: 's1', promotion })],
      ['a failure when idle', idle, searchRefused({ requestId: 's1', error: 'NO_PROMOTION' })],
      ['a search answer while receiving', receiving, searchAnswered({ requestId: 'a1', promotion })],
      ['receive when idle', idle, receiveStarted({ requestId: 'a1' })],
      ['receive while searching', searching, receiveStarted({ requestId: 'a1' })],
      ['receive when not found', notFound, receiveStarted({ requestId: 'a1' })],
      ['receive after a failed search', searchFailed, receiveStarted({ requestId: 'a1' })],
      ['receive while receiving', receiving, receiveStarted({ requestId: 'a2' })],
      ["another receive's answer", receiving, receiveAnswered({ requestId: 'a0' })],
      ["another receive's failure", receiving, receiveRefused({ requestId: 'a0', error: 'BONUS_FULL' })],
      ['a receive answer when idle (closed meanwhile)', idle, receiveAnswered({ requestId: 'a1' })],
      ['a receive answer while found', found, receiveAnswered({ requestId: 'a1' })],
      ['a receive failure while found', found, receiveRefused({ requestId: 'a1', error: 'BONUS_FULL' })],
      ['closing when idle', idle, closed()],
    ])('%s', (_name, from, event) => {
      expect(run(from, event)).toBe(from);
    });
  });
});

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
