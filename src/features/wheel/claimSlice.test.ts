import type { UnknownAction } from '@reduxjs/toolkit';

import { makeStore } from '../../app/store';
import { sessionEnded } from '../../core/authEvents';
import { mutationAction, type Phase } from '../../test/support/rtkActions';
import { coupon as serverCoupon, fakeWheelServer } from '../../test/support/wheel';
import { claimAsked, claimDeclined, claimDismissed, claimReducer, couponsLeft, initialClaimFlow, type ClaimFlow } from './claimSlice';
import { claimConfirmed, selectClaimFlow } from './claimStore';
import type { Coupon } from './wheelApi';

/** The claim endpoint's own RTK Query actions (its argument is the coupon id). */
const claim = (phase: Phase, requestId: string, couponId: string, payload?: unknown): UnknownAction => mutationAction('claimCoupon', phase, requestId, couponId, payload);

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

const run = (actions: UnknownAction[], from: ClaimFlow = initialClaimFlow) => actions.reduce(claimReducer, from);
const confirming: ClaimFlow = { status: 'confirming', coupon };
const claiming: ClaimFlow = { status: 'claiming', coupon, requestId: 'r1' };
const claimed: ClaimFlow = { status: 'claimed', coupon: claimedCoupon };
const failed: ClaimFlow = { status: 'failed', coupon, code: 'COUPON_EXPIRED' };

describe('claim machine: transitions', () => {
  it('idle -> confirming -> idle when declined', () => {
    expect(run([claimAsked(coupon)])).toEqual(confirming);
    expect(run([claimDeclined()], confirming)).toEqual(initialClaimFlow);
  });

  it('confirming -> claiming -> claimed (the server coupon) -> idle', () => {
    expect(run([claim('pending', 'r1', 'c-1')], confirming)).toEqual(claiming);
    expect(run([claim('fulfilled', 'r1', 'c-1', { message: 'SUCCESS', coupon: claimedCoupon })], claiming)).toEqual(claimed);
    expect(run([claim('fulfilled', 'r1', 'c-1', { message: 'SUCCESS' })], claiming)).toEqual({ status: 'claimed', coupon });
    expect(run([claimDismissed()], claimed)).toEqual(initialClaimFlow);
  });

  it('claiming -> failed with the code -> idle', () => {
    expect(run([claim('rejected', 'r1', 'c-1', { status: 422, data: { message: 'COUPON_EXPIRED' } })], claiming)).toEqual(failed);
    expect(run([claim('rejected', 'r1', 'c-1', { status: 'FETCH_ERROR', error: 'offline' })], claiming)).toEqual({ ...failed, code: 'NETWORK' });
    expect(run([claimDismissed()], failed)).toEqual(initialClaimFlow);
  });

  it('the list going or the session ending returns to idle from every state', () => {
    for (const from of [initialClaimFlow, confirming, claiming, claimed, failed]) {
      expect(run([couponsLeft()], from)).toEqual(initialClaimFlow);
      expect(run([sessionEnded('logout')], from)).toEqual(initialClaimFlow);
    }
  });
});

describe('claim machine: refused events leave the state unchanged', () => {
  const cases: [string, ClaimFlow, UnknownAction][] = [
    ['a second coupon asked while confirming', confirming, claimAsked(other)],
    ['a coupon asked while claiming', claiming, claimAsked(other)],
    ['a coupon asked while the result shows', claimed, claimAsked(other)],
    ['a claim sent without a confirmation', initialClaimFlow, claim('pending', 'r1', 'c-1')],
    ['a claim sent for another coupon than the one confirmed', confirming, claim('pending', 'r1', 'c-2')],
    ['a second claim sent while claiming', claiming, claim('pending', 'r2', 'c-1')],
    ['declining while claiming', claiming, claimDeclined()],
    ['declining in idle', initialClaimFlow, claimDeclined()],
    ['the answer to another request (a stale one)', claiming, claim('fulfilled', 'r2', 'c-1', { message: 'SUCCESS', coupon: claimedCoupon })],
    ['the refusal of another request', claiming, claim('rejected', 'r2', 'c-1', { status: 404, data: { message: 'NO_CLAIMABLE_COUPON' } })],
    ['an answer while confirming', confirming, claim('fulfilled', 'r1', 'c-1', { message: 'SUCCESS', coupon: claimedCoupon })],
    ['an answer after the result', claimed, claim('fulfilled', 'r1', 'c-1', { message: 'SUCCESS', coupon: claimedCoupon })],
    ['dismissing while confirming', confirming, claimDismissed()],
    ['dismissing while claiming', claiming, claimDismissed()],
  ];
  it.each(cases)('%s', (_name, from, event) => {
    expect(run([event], from)).toBe(from);
  });
});

describe('claims against the server', () => {
  const session = { session: { token: 'tok', remember: false, login: { status: 'loggedIn' as const } } };

  it('sends nothing until a claim is confirmed, then one claim for that coupon', async () => {
    const fake = fakeWheelServer({ coupons: [serverCoupon('c-1')] });
    const store = makeStore(session);
    expect(store.dispatch(claimConfirmed())).toBeNull();
    store.dispatch(claimAsked(serverCoupon('c-1')));
    const release = fake.holdAnswers();
    const request = store.dispatch(claimConfirmed());
    expect(request).not.toBeNull();
    expect(selectClaimFlow(store.getState())).toMatchObject({ status: 'claiming' });
    expect(store.dispatch(claimConfirmed())).toBeNull();
    release();
    await request;
    expect(selectClaimFlow(store.getState())).toMatchObject({ status: 'claimed', coupon: { _id: 'c-1', status: 'CLAIMED' } });
    expect(fake.calls.claims).toEqual([{ couponId: 'c-1' }]);
  });

  it('a refused claim is the failure with its code', async () => {
    const fake = fakeWheelServer({ coupons: [serverCoupon('c-1')] });
    fake.refuseNext('claim', 422, 'COUPON_EXPIRED');
    const store = makeStore(session);
    store.dispatch(claimAsked(serverCoupon('c-1')));
    await store.dispatch(claimConfirmed());
    expect(selectClaimFlow(store.getState())).toMatchObject({ status: 'failed', code: 'COUPON_EXPIRED' });
  });
});
