import type { UnknownAction } from '@reduxjs/toolkit';

import { makeStore } from '../../app/store';
import { sessionEnded } from '../../core/authEvents';
import { connectToaster, type Toast } from '../../core/notify';
import { fakeBonusServer, playerSession } from '../../test/support/bonus';
import { server } from '../../test/support/server';
import type { Promotion } from './bonusApi';
import { promotionReceived, promotionSearched, selectPromotionFlow } from './bonusStore';
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

  it('closing (or leaving the search) goes back to idle from any open state', () => {
    for (const from of [searching, found, notFound, searchFailed, receiving, receiveFailed]) expect(run(from, closed())).toEqual(idle);
  });

  it('the session ending goes back to idle from any open state', () => {
    for (const from of [searching, found, notFound, searchFailed, receiving, receiveFailed]) expect(run(from, sessionEnded('logout'))).toEqual(idle);
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
      ['the session ending when idle', idle, sessionEnded('logout')],
    ])('%s', (_name, from, event) => {
      expect(run(from, event)).toBe(from);
    });
  });
});

describe('promotion flow in the store (state.bonusPromotion, the calls in bonusStore.ts)', () => {
  let toasts: Toast[];
  let disconnect: () => void;
  beforeEach(() => {
    toasts = [];
    disconnect = connectToaster((toast) => toasts.push(toast));
  });
  afterEach(() => disconnect());

  const storeWith = (promotions: Promotion[]) => {
    const fake = fakeBonusServer({ promotions });
    server.use(...fake.handlers);
    return { fake, store: makeStore(playerSession) };
  };

  it('search -> found -> receive: the modal closes and the toast names the amount credited', async () => {
    const { fake, store } = storeWith([promotion]);
    expect(selectPromotionFlow(store.getState())).toEqual(initialPromotionFlow);
    await store.dispatch(promotionSearched('WELCOME50'));
    expect(selectPromotionFlow(store.getState())).toEqual({ status: 'found', code: 'WELCOME50', promotion: promotion });
    await expect(store.dispatch(promotionReceived())).resolves.toBe(true);
    expect(store.getState().bonusPromotion).toEqual(initialPromotionFlow);
    expect(fake.calls.promote).toEqual(['WELCOME50']);
    expect(toasts).toEqual([{ variant: 'success', message: 'The promotion is active: 250.00 baht bonus was added to your wallet.' }]);
  });

  it('an unknown code is notFound; a refused receive is receiveFailed, no toast', async () => {
    const { fake, store } = storeWith([promotion]);
    await store.dispatch(promotionSearched('NOPE'));
    expect(selectPromotionFlow(store.getState())).toEqual({ status: 'notFound', code: 'NOPE' });
    await store.dispatch(promotionSearched('WELCOME50'));
    fake.refuseNext('promote', 422, 'PROMOTION_RECEIVED');
    await expect(store.dispatch(promotionReceived())).resolves.toBe(false);
    expect(selectPromotionFlow(store.getState())).toEqual({ status: 'receiveFailed', code: 'WELCOME50', promotion: promotion, error: 'PROMOTION_RECEIVED' });
    expect(toasts).toEqual([]);
  });

  it('a search answered after the modal closed changes nothing', async () => {
    const { fake, store } = storeWith([promotion]);
    const release = fake.holdFind();
    const searched = store.dispatch(promotionSearched('WELCOME50'));
    expect(selectPromotionFlow(store.getState()).status).toBe('searching');
    store.dispatch(closed());
    release();
    await searched;
    expect(selectPromotionFlow(store.getState())).toEqual(initialPromotionFlow);
  });

  it('sends nothing when the state allows no call: no search while one is shown, no receive before one is found', async () => {
    const { fake, store } = storeWith([promotion]);
    await expect(store.dispatch(promotionReceived())).resolves.toBe(false);
    expect(fake.calls.promote).toEqual([]);
    await store.dispatch(promotionSearched('WELCOME50'));
    const finds = fake.calls.find.length;
    await store.dispatch(promotionSearched('OTHER'));
    expect(fake.calls.find).toHaveLength(finds);
    expect(selectPromotionFlow(store.getState())).toMatchObject({ status: 'found', code: 'WELCOME50' });
  });
});
