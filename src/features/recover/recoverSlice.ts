import { createSlice } from '@reduxjs/toolkit';

import { errorCode } from '../../core/apiErrors';
import { recoverApi } from './recoverApi';

/**
 * The forgotten-password machine (issue 40 item 4):
 *
 *   phone --(code sent: the same answer for any phone)--> code --(code right)--> password --(password set)--> done
 *   code --(a new code asked for)--> code, with the new reference and token
 *   code --(back)--> phone
 *   password --(the code expired, was used or is unknown)--> phone with the error (start again)
 *   any step --(its call refused)--> the same step with the error code
 *
 * Every step has at most one call in flight (`pending`, its RTK request id); only that call's answer moves the
 * machine, and an event a step does not expect leaves the state as it is. Nothing typed is kept here but the phone:
 * the code and the passwords stay in the views.
 */
export type RecoverState =
  | { step: 'phone'; phone: string; pending: string | null; error: string | null }
  | { step: 'code'; phone: string; otpRef: string; otpToken: string; pending: string | null; error: string | null }
  | { step: 'password'; phone: string; otpToken: string; pending: string | null; error: string | null }
  | { step: 'done' };

export type RecoverStep = RecoverState['step'];

export const initialRecover: RecoverState = { step: 'phone', phone: '', pending: null, error: null };

/** Answers of the reset call that mean the verified code can no longer set a password: a new one is needed. */
const CODE_GONE: ReadonlySet<string> = new Set(['OTP_EXPIRED', 'OTP_TOKEN_INVALID', 'UNVERIFIED_OTP']);

type Working = Exclude<RecoverState, { step: 'done' }>;
const idle = (state: RecoverState): state is Working => state.step !== 'done' && state.pending === null;
const awaiting = (state: RecoverState, requestId: string): state is Working => state.step !== 'done' && state.pending === requestId;

const recoverSlice = createSlice({
  name: 'recover',
  initialState: initialRecover as RecoverState,
  reducers: {
    /** The page opened: a fresh start (an answer still in flight matches nothing). */
    recoveryOpened: () => initialRecover,
    /** The page was left: nothing stays behind. */
    recoveryLeft: () => initialRecover,
    /** From the code step back to the phone (another number, or a typo in it). */
    backRequested(state) {
      if (state.step !== 'code' || !idle(state)) return state;
      return { step: 'phone', phone: state.phone, pending: null, error: null };
    },
  },
  extraReducers: (builder) => {
    builder
      // POST /api/account/forgot: from the phone step, or a new code on the code step.
      .addMatcher(recoverApi.endpoints.requestPasswordReset.matchPending, (state, action) => {
        if ((state.step !== 'phone' && state.step !== 'code') || !idle(state)) return state;
        const phone = state.step === 'phone' ? action.meta.arg.originalArgs.phoneNumber : state.phone;
        return { ...state, phone, pending: action.meta.requestId, error: null };
      })
      .addMatcher(recoverApi.endpoints.requestPasswordReset.matchFulfilled, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || (state.step !== 'phone' && state.step !== 'code')) return state;
        const { otpRef, otpToken } = action.payload;
        return { step: 'code', phone: state.phone, otpRef, otpToken, pending: null, error: null };
      })
      .addMatcher(recoverApi.endpoints.requestPasswordReset.matchRejected, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || (state.step !== 'phone' && state.step !== 'code')) return state;
        return { ...state, pending: null, error: errorCode(action.payload ?? action.error) };
      })
      // POST /api/otp/verify with the reset code.
      .addMatcher(recoverApi.endpoints.verifyResetCode.matchPending, (state, action) => {
        if (state.step !== 'code' || !idle(state) || action.meta.arg.originalArgs.otpToken !== state.otpToken) return state;
        return { ...state, pending: action.meta.requestId, error: null };
      })
      .addMatcher(recoverApi.endpoints.verifyResetCode.matchFulfilled, (state, action) => {
        if (state.step !== 'code' || !awaiting(state, action.meta.requestId)) return state;
        return { step: 'password', phone: state.phone, otpToken: state.otpToken, pending: null, error: null };
      })
      .addMatcher(recoverApi.endpoints.verifyResetCode.matchRejected, (state, action) => {
        if (state.step !== 'code' || !awaiting(state, action.meta.requestId)) return state;
        return { ...state, pending: null, error: errorCode(action.payload ?? action.error) };
      })
      // POST /api/account/reset with the verified code's token.
      .addMatcher(recoverApi.endpoints.resetPassword.matchPending, (state, action) => {
        if (state.step !== 'password' || !idle(state) || action.meta.arg.originalArgs.otpToken !== state.otpToken) return state;
        return { ...state, pending: action.meta.requestId, error: null };
      })
      .addMatcher(recoverApi.endpoints.resetPassword.matchFulfilled, (state, action) => {
        if (state.step !== 'password' || !awaiting(state, action.meta.requestId)) return state;
        return { step: 'done' };
      })
      .addMatcher(recoverApi.endpoints.resetPassword.matchRejected, (state, action) => {
        if (state.step !== 'password' || !awaiting(state, action.meta.requestId)) return state;
        const code = errorCode(action.payload ?? action.error);
        if (CODE_GONE.has(code)) return { step: 'phone', phone: state.phone, pending: null, error: code };
        return { ...state, pending: null, error: code };
      });
  },
});

export const { recoveryOpened, recoveryLeft, backRequested } = recoverSlice.actions;
export const recoverReducer = recoverSlice.reducer;
