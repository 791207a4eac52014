import type { AppDispatch, RootState } from '../../app/store';
import { errorCode } from '../../core/apiErrors';
import { i18n } from '../../core/i18n';
import { injectSlice } from '../../core/lazySlices';
import { errorText, toastSuccess } from '../../core/notify';
import { selectLocale } from '../../core/prefs';
import { formatAmount } from '../../lib/format';
import {
  activationAnswered,
  activationFlowReducer,
  activationRefused,
  activationStarted,
  initialActivationFlow,
  type ActivationFlow,
} from './activationFlow';
import { bonusApi } from './bonusApi';
import { cancelFlowReducer, clearAnswered, clearRefused, clearStarted, initialCancelFlow, type CancelFlow } from './cancelFlow';
import {
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

/**
 * The bonus screen's flows in the store: their machines (the *Flow.ts slices) are injected when the /user/bonus chunk
 * loads (core/lazySlices.ts), so they show in Redux DevTools and the login bundle does not carry them. Until an action
 * has passed after the injection a state is undefined: the selectors fall back to the start. The thunks here make the
 * calls and the toasts; the components render from the selectors and dispatch.
 */
injectSlice({ reducerPath: 'bonusPromotion', reducer: promotionFlowReducer });
injectSlice({ reducerPath: 'bonusActivation', reducer: activationFlowReducer });
injectSlice({ reducerPath: 'bonusCancel', reducer: cancelFlowReducer });

type FailedCall = Parameters<typeof errorCode>[0];

export const selectPromotionFlow = (state: RootState): PromotionFlow => state.bonusPromotion ?? initialPromotionFlow;
export const selectActivationFlow = (state: RootState): ActivationFlow => state.bonusActivation ?? initialActivationFlow;
export const selectCancelFlow = (state: RootState): CancelFlow => state.bonusCancel ?? initialCancelFlow;

/** Spec §7: the code (required, upper-cased by the caller, spec §5) is looked up; the answer is the promotion, or nothing. */
export const promotionSearched = (code: string) => async (dispatch: AppDispatch, getState: () => RootState) => {
  const state = selectPromotionFlow(getState());
  if (state.status !== 'idle' && state.status !== 'notFound' && state.status !== 'searchFailed') return;
  // Each search asks the server again (the lazy query's trigger does the same).
  const request = dispatch(bonusApi.endpoints.findPromotion.initiate(code, { forceRefetch: true }));
  const { requestId } = request;
  dispatch(searchStarted({ code, requestId }));
  try {
    const promotion = await request.unwrap();
    dispatch(promotion && promotion.code ? searchAnswered({ requestId, promotion }) : searchRefused({ requestId, error: 'NO_PROMOTION' }));
  } catch (error) {
    dispatch(searchRefused({ requestId, error: errorCode(error as FailedCall) }));
  } finally {
    request.unsubscribe();
  }
};

/**
 * Receiving the promotion shown. Resolves to true when the server credited it: the toast names what it credited
 * (issue 40 item 11), and the bonuses reload through the mutation's tags.
 */
export const promotionReceived = () => async (dispatch: AppDispatch, getState: () => RootState): Promise<boolean> => {
  const state = selectPromotionFlow(getState());
  if (state.status !== 'found' && state.status !== 'receiveFailed') return false;
  // Not kept in the store's mutation list: only this thunk reads the answer.
  const request = dispatch(bonusApi.endpoints.activatePromotion.initiate(state.code, { track: false }));
  const { requestId } = request;
  dispatch(receiveStarted({ requestId }));
  try {
    const answer = await request.unwrap();
    dispatch(receiveAnswered({ requestId }));
    toastSuccess(i18n.t('bonus.promotion.credited', { amount: formatAmount(answer.amount, selectLocale(getState())) }));
    return true;
  } catch (error) {
    dispatch(receiveRefused({ requestId, error: errorCode(error as FailedCall) }));
    return false;
  }
};

/** Receiving the bonus of the open modal (spec §2): the answer names the amount credited (issue 40 item 11). */
export const bonusReceived = (code: string) => async (dispatch: AppDispatch, getState: () => RootState) => {
  const state = selectActivationFlow(getState());
  if (state.status !== 'ready' && state.status !== 'failed') return;
  const request = dispatch(bonusApi.endpoints.activateBonus.initiate(code, { track: false }));
  const { requestId } = request;
  dispatch(activationStarted({ requestId }));
  try {
    const answer = await request.unwrap();
    dispatch(activationAnswered({ requestId, amount: answer.amount }));
  } catch (error) {
    dispatch(activationRefused({ requestId, error: errorCode(error as FailedCall) }));
  }
};

/**
 * Spec §4, §8: the player confirmed cancelling the active bonus. Success toasts the server's message and the active
 * state and list reload through the mutation's tags; a failure shows in the danger dialog.
 */
export const cancelConfirmed = () => async (dispatch: AppDispatch, getState: () => RootState) => {
  if (selectCancelFlow(getState()).status !== 'confirming') return;
  const request = dispatch(bonusApi.endpoints.clearBonus.initiate(undefined, { track: false }));
  const { requestId } = request;
  dispatch(clearStarted({ requestId }));
  try {
    const answer = await request.unwrap();
    dispatch(clearAnswered({ requestId }));
    toastSuccess(errorText(answer?.message ?? 'BONUS_CLEAR'));
  } catch (error) {
    dispatch(clearRefused({ requestId, error: errorCode(error as FailedCall) }));
  }
};
