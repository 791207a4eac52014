import type { UnknownAction } from '@reduxjs/toolkit';

import { claimAnswered, claimAsked, claimDeclined, claimDismissed, claimFlowReducer, claimRefused, claimStarted, initialClaimFlow, type ClaimFlow } from './claimFlow';
import type { Coupon } from './wheelApi';

const coupon: Coupon = {
  _id: 'c-1',
  prize: { name: { en: 'Cash 50' }, label: '50 baht', htmlDescription: { en: '<p>50 baht</p>' } },
  amount: 50,
  type: 'cash',
  status: 'CLAIMABLE',
  expiresAt: '2026-12-01T00:00:00.000Z',
  createdAt: '2026-11-24T00:00:00.000Z',
};
const other: Coupon = { ...coupon, _id: 'c-2' };
const claimedCoupon: Coupon = { ...coupon, status: 'CLAIMED' };

const run = (actions: UnknownAction[], from: ClaimFlow = initialClaimFlow) => actions.reduce(claimFlowReducer, from);
const confirming: ClaimFlow = { status: 'confirming', coupon };
const claiming: ClaimFlow = { status: 'claiming', coupon, requestId: 'r1' };
const claimed: ClaimFlow = { status: 'claimed', coupon: claimedCoupon };
const failed: ClaimFlow = { status: 'failed', coupon, code: 'COUPON_EXPIRED' };

describe('claim flow: transitions', () => {
  it('idle -> confirming -> idle when declined', () => {
    expect(run([claimAsked(coupon)])).toEqual(confirming);
    expect(run([claimDeclined()], confirming)).toEqual(initialClaimFlow);
  });

  it('confirming -> claiming -> claimed (the server coupon) -> idle', () => {
    expect(run([claimStarted({ requestId: 'r1' })], confirming)).toEqual(claiming);
    expect(run([claimAnswered({ requestId: 'r1', coupon: claimedCoupon })], claiming)).toEqual(claimed);
    expect(run([claimAnswered({ requestId: 'r1' })], claiming)).toEqual({ status: 'claimed', coupon });
    expect(run([claimDismissed()], claimed)).toEqual(initialClaimFlow);
  });

  it('claiming -> failed with the code -> idle', () => {
    expect(run([claimRefused({ requestId: 'r1', code: 'COUPON_EXPIRED' })], claiming)).toEqual(failed);
    expect(run([claimDismissed()], failed)).toEqual(initialClaimFlow);
  });
});

describe('claim flow: refused events leave the state unchanged', () => {
  const cases: [string, ClaimFlow, UnknownAction][] = [
    ['a second coupon asked while confirming', confirming, claimAsked(other)],
    ['a coupon asked while claiming', claiming, claimAsked(other)],
    ['a coupon asked while the result shows', claimed, claimAsked(other)],
    ['a claim started without a confirmation', initialClaimFlow, claimStarted({ requestId: 'r1' })],
    ['a second claim started while claiming', claiming, claimStarted({ requestId: 'r2' })],
    ['declining while claiming', claiming, claimDeclined()],
    ['declining in idle', initialClaimFlow, claimDeclined()],
    ['the answer to another request', claiming, claimAnswered({ requestId: 'r2' })],
    ['the refusal of another request', claiming, claimRefused({ requestId: 'r2', code: 'NO_CLAIMABLE_COUPON' })],
    ['an answer while confirming', confirming, claimAnswered({ requestId: 'r1' })],
    ['an answer after the result', claimed, claimAnswered({ requestId: 'r1' })],
    ['dismissing while confirming', confirming, claimDismissed()],
    ['dismissing while claiming', claiming, claimDismissed()],
  ];
  it.each(cases)('%s', (_name, from, event) => {
    expect(run([event], from)).toBe(from);
  });
});
