import type { AppDispatch, RootState } from '../../app/store';
import { api } from '../../core/api';
import { i18n } from '../../core/i18n';
import { injectSlice } from '../../core/lazySlices';
import type { ModalId } from '../../core/modalIds';
import { modalClosed } from '../../core/modalSlice';
import { toastSuccess } from '../../core/notify';
import { selectLocale } from '../../core/prefs';
import { formatAmount } from '../../lib/format';
import { homeReducer, initialHomeState, inviteReceiveEnded, inviteReceiveStarted, type HomeState } from './homeSlice';
import { walletEndpoints } from './walletEndpoints';

/**
 * The home's slice, injected with the wallet's chunk (the login bundle does not carry it), and the home's side
 * effects as thunks: the view dispatches them and draws from the selectors. Until an action has passed after the
 * injection the state is undefined: the selector falls back to the start.
 */
injectSlice({ reducerPath: 'home', reducer: homeReducer });

export const selectHome = (state: RootState): HomeState => state.home ?? initialHomeState;
export const selectInviteReceiving = (state: RootState): boolean => selectHome(state).invite.status === 'receiving';

/** Spec §4: closing the transfer, withdraw or game-account modal with a true flag (money moved) reloads the wallet. */
export const moneyModalClosed = (id: ModalId, changed: boolean) => (dispatch: AppDispatch) => {
  dispatch(modalClosed(id));
  if (changed) dispatch(api.util.invalidateTags(['Wallet']));
};

/**
 * Spec §4: receiving the invite bonus reloads the wallet (the call's tags) and says what was credited; a refusal is
 * the base query's translated toast. Ignored while a receive is under way.
 */
export const inviteBonusReceived = () => async (dispatch: AppDispatch, getState: () => RootState) => {
  if (selectHome(getState()).invite.status !== 'idle') return;
  // Not kept in the store's mutation list: only this thunk reads the answer.
  const request = dispatch(walletEndpoints.endpoints.receiveInviteBonus.initiate(undefined, { track: false }));
  const { requestId } = request;
  dispatch(inviteReceiveStarted({ requestId }));
  try {
    const answer = await request.unwrap();
    dispatch(inviteReceiveEnded({ requestId }));
    toastSuccess(i18n.t('home.inviteReceived', { amount: formatAmount(answer?.amount, selectLocale(getState())) }));
  } catch {
    dispatch(inviteReceiveEnded({ requestId }));
  }
};
