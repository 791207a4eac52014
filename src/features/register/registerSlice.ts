import { createAsyncThunk, createSlice, type PayloadAction } from '@reduxjs/toolkit';

import { errorCode } from '../../core/apiErrors';
import type { Locale } from '../../lib/locale';
import type { BankDraft, ProfileDraft } from './registerApi';
import { registerApi } from './registerApi';

/**
 * The registration machine of spec §4:
 *
 *   phone --(OTP on, phone not verified: code sent)--> otp --(code right)--> profile
 *   phone --(OTP off: the server says the phone is free)--> profile
 *   phone --(phone already verified, or send answers OTP_VERIFIED)--> profile
 *   phone --(send or check answers EXISTING_USER, a malformed phone...)--> phone with the error (issue 12)
 *   profile --(server validated)--> bank --(server registered)--> registered (then /login after 2 s)
 *
 * Every step may have one request in flight (`pending`, the RTK request id); only the answer to that request
 * moves the machine. An answer for a step the player has left, or an event a step does not know, leaves the
 * state as it is. What the player entered travels with the machine, so going back keeps it.
 */
interface StepData {
  phone: string;
  /** The phone whose OTP was confirmed in this registration: entering it again skips the OTP step. */
  verifiedPhone: string | null;
  profile: ProfileDraft | null;
  bank: BankDraft | null;
  /** The request id of the call in flight, if any. */
  pending: string | null;
  /** The error code the last call of this step answered (shown translated on the step). */
  error: string | null;
}

export type RegisterState =
  | ({ step: 'phone' } & StepData)
  | ({ step: 'otp'; otpRef: string; otpToken: string } & StepData)
  | ({ step: 'profile' } & StepData)
  | ({ step: 'bank'; profile: ProfileDraft } & StepData)
  | { step: 'registered'; phone: string };

export type RegisterStep = RegisterState['step'];

export const initialRegister: RegisterState = {
  step: 'phone',
  phone: '',
  verifiedPhone: null,
  profile: null,
  bank: null,
  pending: null,
  error: null,
};

/** Server codes that are about the phone number: whichever call answers them, the player fixes them on step 1. */
const PHONE_CODES: ReadonlySet<string> = new Set(['EXISTING_USER', 'PHONE_NUMBER_REQUIRE_10_DIGIT', 'UNVERIFIED_OTP']);

type Working = Exclude<RegisterState, { step: 'registered' }>;
const idle = (state: Working): boolean => state.pending === null;
const awaiting = (state: RegisterState, requestId: string): state is Working =>
  state.step !== 'registered' && state.pending === requestId;

/** Back to step 1 with the error, keeping what was entered; UNVERIFIED_OTP also forgets the verification. */
function toPhoneStep(state: Working, code: string, bank: BankDraft | null): RegisterState {
  return {
    step: 'phone',
    phone: state.phone,
    verifiedPhone: code === 'UNVERIFIED_OTP' ? null : state.verifiedPhone,
    profile: state.profile,
    bank,
    pending: null,
    error: code,
  };
}

function data(state: Working): StepData {
  const { phone, verifiedPhone, profile, bank } = state;
  return { phone, verifiedPhone, profile, bank, pending: null, error: null };
}

const registerSlice = createSlice({
  name: 'register',
  initialState: initialRegister as RegisterState,
  reducers: {
    /** The register screen opened: a fresh registration (an answer still in flight will match nothing). */
    registrationOpened: () => initialRegister,
    /** The player left the register screen: nothing entered stays behind (passwords included). */
    registrationLeft: () => initialRegister,
    /** Step 1 done without an OTP (OTP registration off, or this phone verified in this registration). */
    phoneConfirmed(state, action: PayloadAction<{ phone: string }>) {
      if (state.step !== 'phone' || !idle(state)) return state;
      return { ...data(state), step: 'profile', phone: action.payload.phone };
    },
    /** Back one step: otp -> phone, profile -> phone, bank -> profile (keeping the bank entries given). */
    backRequested(state, action: PayloadAction<{ bank?: BankDraft } | undefined>) {
      if (state.step === 'phone' || state.step === 'registered' || !idle(state)) return state;
      if (state.step === 'bank') return { ...data(state), step: 'profile', bank: action.payload?.bank ?? state.bank };
      return { ...data(state), step: 'phone' };
    },
  },
  extraReducers: (builder) => {
    builder
      // POST /api/otp/send: from step 1, or a new code on step 2.
      .addMatcher(registerApi.endpoints.sendOtp.matchPending, (state, action) => {
        if ((state.step !== 'phone' && state.step !== 'otp') || !idle(state)) return state;
        const phone = state.step === 'phone' ? action.meta.arg.originalArgs.phoneNumber : state.phone;
        return { ...state, phone, pending: action.meta.requestId, error: null };
      })
      .addMatcher(registerApi.endpoints.sendOtp.matchFulfilled, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || (state.step !== 'phone' && state.step !== 'otp')) return state;
        const phone = action.meta.arg.originalArgs.phoneNumber;
        const answer = action.payload;
        if (answer.code === 'OTP_VERIFIED') return { ...data(state), step: 'profile', phone, verifiedPhone: phone };
        return { ...data(state), step: 'otp', phone, otpRef: answer.otpRef, otpToken: answer.otpToken };
      })
      .addMatcher(registerApi.endpoints.sendOtp.matchRejected, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || (state.step !== 'phone' && state.step !== 'otp')) return state;
        const code = errorCode(action.payload ?? action.error);
        const phone = action.meta.arg.originalArgs.phoneNumber;
        // Spec §4: OTP_VERIFIED when sending skips the OTP step, however the server phrases it.
        if (code === 'OTP_VERIFIED') return { ...data(state), step: 'profile', phone, verifiedPhone: phone };
        return { ...state, pending: null, error: code };
      })
      // POST /api/account/checkPhone on step 1 when OTP registration is off.
      .addMatcher(registerApi.endpoints.checkPhone.matchPending, (state, action) => {
        if (state.step !== 'phone' || !idle(state)) return state;
        return { ...state, phone: action.meta.arg.originalArgs.username, pending: action.meta.requestId, error: null };
      })
      .addMatcher(registerApi.endpoints.checkPhone.matchFulfilled, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || state.step !== 'phone') return state;
        return { ...data(state), step: 'profile', phone: action.meta.arg.originalArgs.username };
      })
      .addMatcher(registerApi.endpoints.checkPhone.matchRejected, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || state.step !== 'phone') return state;
        return { ...state, pending: null, error: errorCode(action.payload ?? action.error) };
      })
      // POST /api/otp/verify on step 2.
      .addMatcher(registerApi.endpoints.verifyOtp.matchPending, (state, action) => {
        if (state.step !== 'otp' || !idle(state)) return state;
        return { ...state, pending: action.meta.requestId, error: null };
      })
      .addMatcher(registerApi.endpoints.verifyOtp.matchFulfilled, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || state.step !== 'otp') return state;
        return { ...data(state), step: 'profile', verifiedPhone: state.phone };
      })
      .addMatcher(registerApi.endpoints.verifyOtp.matchRejected, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || state.step !== 'otp') return state;
        return { ...state, pending: null, error: errorCode(action.payload ?? action.error) };
      })
      // POST /api/account/validate on step 3.
      .addMatcher(registerApi.endpoints.validateProfile.matchPending, (state, action) => {
        if (state.step !== 'profile' || !idle(state)) return state;
        return { ...state, profile: action.meta.arg.originalArgs.profile, pending: action.meta.requestId, error: null };
      })
      .addMatcher(registerApi.endpoints.validateProfile.matchFulfilled, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || state.step !== 'profile') return state;
        return { ...data(state), step: 'bank', profile: action.meta.arg.originalArgs.profile };
      })
      .addMatcher(registerApi.endpoints.validateProfile.matchRejected, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || state.step !== 'profile') return state;
        const code = errorCode(action.payload ?? action.error);
        if (PHONE_CODES.has(code)) return toPhoneStep(state, code, state.bank);
        return { ...state, pending: null, error: code };
      })
      // POST /api/account on step 4.
      .addMatcher(registerApi.endpoints.registerAccount.matchPending, (state, action) => {
        if (state.step !== 'bank' || !idle(state)) return state;
        return { ...state, bank: action.meta.arg.originalArgs.bank, pending: action.meta.requestId, error: null };
      })
      .addMatcher(registerApi.endpoints.registerAccount.matchFulfilled, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || state.step !== 'bank') return state;
        return { step: 'registered', phone: state.phone };
      })
      .addMatcher(registerApi.endpoints.registerAccount.matchRejected, (state, action) => {
        if (!awaiting(state, action.meta.requestId) || state.step !== 'bank') return state;
        const code = errorCode(action.payload ?? action.error);
        if (PHONE_CODES.has(code)) return toPhoneStep(state, code, state.bank);
        return { ...state, pending: null, error: code };
      });
  },
  selectors: {
    selectRegister: (state) => state,
    selectRegisterStep: (state) => state.step,
  },
});

export const { registrationOpened, registrationLeft, phoneConfirmed, backRequested } = registerSlice.actions;
export const { selectRegister, selectRegisterStep } = registerSlice.selectors;
export const registerReducer = registerSlice.reducer;

/** The steps the player goes through, for "step n of m": the OTP step only when OTP registration is on. */
export function registrationSteps(otpEnabled: boolean): RegisterStep[] {
  return otpEnabled ? ['phone', 'otp', 'profile', 'bank'] : ['phone', 'profile', 'bank'];
}

/**
 * Step 1's submit: with OTP registration on (or unknown: a send is harmless when it is off) and the phone not
 * verified in this registration, send a code in the player's language (`lang`); with it off, ask the server
 * whether the phone is free, so a registered phone is told on step 1 (issue 12). A phone verified in this
 * registration goes straight to the profile step (its send already checked it).
 */
export const phoneSubmitted = createAsyncThunk<void, string | { phone: string; lang?: Locale }, { state: { register: RegisterState } }>(
  'register/phoneSubmitted',
  async (arg, { dispatch, getState }) => {
    const { phone, lang } = typeof arg === 'string' ? { phone: arg, lang: undefined } : arg;
    const state = getState().register;
    if (state.step !== 'phone' || state.pending !== null) return;
    if (state.verifiedPhone === phone) {
      dispatch(phoneConfirmed({ phone }));
      return;
    }
    const lookup = await dispatch(registerApi.endpoints.getRegisterOtpLookup.initiate(undefined, { subscribe: false }));
    if (lookup.data && !lookup.data.registerOTP) {
      await dispatch(registerApi.endpoints.checkPhone.initiate({ username: phone }));
      return;
    }
    await dispatch(registerApi.endpoints.sendOtp.initiate(lang ? { phoneNumber: phone, lang } : { phoneNumber: phone }));
  },
);

export default registerSlice;
