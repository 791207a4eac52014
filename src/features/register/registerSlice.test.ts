import { http, HttpResponse } from 'msw';

import { makeStore } from '../../app/store';
import { errorResponse, server } from '../../test/support/server';
import type { BankDraft, ProfileDraft } from './registerApi';
import {
  backRequested,
  initialRegister,
  phoneConfirmed,
  phoneSubmitted,
  registerReducer,
  registrationLeft,
  registrationOpened,
  registrationSteps,
  type RegisterState,
} from './registerSlice';

/** RTK Query's own action shapes for a mutation, so the slice's matchers see what the app dispatches. */
type Endpoint = 'checkPhone' | 'sendOtp' | 'verifyOtp' | 'validateProfile' | 'registerAccount';
const arg = (endpointName: Endpoint, originalArgs: unknown) => ({ type: 'mutation' as const, endpointName, originalArgs, track: true });
const pending = (endpointName: Endpoint, requestId: string, originalArgs: unknown = {}) => ({
  type: 'api/executeMutation/pending',
  payload: undefined,
  meta: { requestId, requestStatus: 'pending', startedTimeStamp: 1, arg: arg(endpointName, originalArgs) },
});
const fulfilled = (endpointName: Endpoint, requestId: string, payload: unknown, originalArgs: unknown = {}) => ({
  type: 'api/executeMutation/fulfilled',
  payload,
  meta: { requestId, requestStatus: 'fulfilled', fulfilledTimeStamp: 2, arg: arg(endpointName, originalArgs), baseQueryMeta: {} },
});
const rejected = (endpointName: Endpoint, requestId: string, message: string, originalArgs: unknown = {}) => ({
  type: 'api/executeMutation/rejected',
  payload: { status: 400, data: { message } },
  error: { message: 'Rejected' },
  meta: {
    requestId,
    requestStatus: 'rejected',
    rejectedWithValue: true,
    aborted: false,
    condition: false,
    arg: arg(endpointName, originalArgs),
  },
});

const PHONE = '0812345678';
const profile: ProfileDraft = { name: 'Somchai', password: 'secret1', sourceCode: 'facebook', inviteCode: 'PR1' };
const bank: BankDraft = { bankCode: 'KBANK', bankAccountNo: '1234567890', firstName: 'SOMCHAI', lastName: 'JAIDEE', currency: '' };
const otpSend = { phoneNumber: PHONE };
const phoneCheck = { username: PHONE };
const sent = { otpRef: 'ABCDEF', otpToken: 'tok-1' };

const base = { phone: PHONE, verifiedPhone: null, profile: null, bank: null, pending: null, error: null };
const phoneStep = (over: Partial<RegisterState> = {}) => ({ ...base, step: 'phone', ...over }) as RegisterState;
const otpStep = (over: Partial<RegisterState> = {}) => ({ ...base, step: 'otp', otpRef: 'ABCDEF', otpToken: 'tok-1', ...over }) as RegisterState;
const profileStep = (over: Partial<RegisterState> = {}) => ({ ...base, step: 'profile', ...over }) as RegisterState;
const bankStep = (over: Partial<RegisterState> = {}) =>
  ({ ...base, step: 'bank', verifiedPhone: PHONE, profile, ...over }) as RegisterState;
const registered: RegisterState = { step: 'registered', phone: PHONE };

describe('registration machine (spec §4): allowed transitions', () => {
  it.each<[string, RegisterState, { type: string }, RegisterState]>([
    // Step 1: phone
    ['phone + confirmed without OTP -> profile', initialRegister, phoneConfirmed({ phone: PHONE }), profileStep()],
    ['phone + code sent -> phone, sending', phoneStep(), pending('sendOtp', 's1', otpSend), phoneStep({ pending: 's1' })],
    ['phone with an error + code sent -> sending, error cleared', phoneStep({ error: 'OTP_SEND_FAIL' }), pending('sendOtp', 's1', otpSend), phoneStep({ pending: 's1' })],
    ['phone sending + reference -> otp with the reference', phoneStep({ pending: 's1' }), fulfilled('sendOtp', 's1', sent, otpSend), otpStep()],
    [
      'phone sending + OTP_VERIFIED -> profile (OTP step skipped)',
      phoneStep({ pending: 's1' }),
      fulfilled('sendOtp', 's1', { code: 'OTP_VERIFIED' }, otpSend),
      profileStep({ verifiedPhone: PHONE }),
    ],
    [
      'phone sending + OTP_VERIFIED as an error answer -> profile',
      phoneStep({ pending: 's1' }),
      rejected('sendOtp', 's1', 'OTP_VERIFIED', otpSend),
      profileStep({ verifiedPhone: PHONE }),
    ],
    ['phone sending + failure -> phone with the code', phoneStep({ pending: 's1' }), rejected('sendOtp', 's1', 'REQUEST_LIMIT_1MIN', otpSend), phoneStep({ error: 'REQUEST_LIMIT_1MIN' })],
    // Step 2: OTP
    ['otp + verify -> otp, verifying', otpStep(), pending('verifyOtp', 'v1'), otpStep({ pending: 'v1' })],
    ['otp verifying + right code -> profile, phone verified', otpStep({ pending: 'v1' }), fulfilled('verifyOtp', 'v1', { code: 'OTP_CODE_VALID' }), profileStep({ verifiedPhone: PHONE })],
    ['otp verifying + wrong code -> otp with the code', otpStep({ pending: 'v1' }), rejected('verifyOtp', 'v1', 'OTP_CODE_INVALID'), otpStep({ error: 'OTP_CODE_INVALID' })],
    ['otp + new code asked -> otp, sending', otpStep({ error: 'OTP_EXPIRED' }), pending('sendOtp', 's2', otpSend), otpStep({ pending: 's2' })],
    [
      'otp sending + new reference -> otp with the new reference',
      otpStep({ pending: 's2' }),
      fulfilled('sendOtp', 's2', { otpRef: 'GHJKLM', otpToken: 'tok-2' }, otpSend),
      otpStep({ otpRef: 'GHJKLM', otpToken: 'tok-2' }),
    ],
    ['otp sending + limit -> otp with the code', otpStep({ pending: 's2' }), rejected('sendOtp', 's2', 'REQUEST_LIMIT', otpSend), otpStep({ pending: null, error: 'REQUEST_LIMIT' })],
    ['otp + back -> phone (number kept)', otpStep({ error: 'OTP_BLOCK' }), backRequested(), phoneStep()],
    // Step 1 without OTP: the server checks the phone (issue 12)
    ['phone + check -> phone, checking', phoneStep({ phone: '' }), pending('checkPhone', 'c1', phoneCheck), phoneStep({ pending: 'c1' })],
    ['phone with an error + check -> checking, error cleared', phoneStep({ error: 'EXISTING_USER' }), pending('checkPhone', 'c1', phoneCheck), phoneStep({ pending: 'c1' })],
    ['phone checking + free -> profile', phoneStep({ pending: 'c1' }), fulfilled('checkPhone', 'c1', { message: 'OK' }, phoneCheck), profileStep()],
    [
      'phone checking + EXISTING_USER -> phone with the code (told at step 1)',
      phoneStep({ pending: 'c1', profile }),
      rejected('checkPhone', 'c1', 'EXISTING_USER', phoneCheck),
      phoneStep({ profile, error: 'EXISTING_USER' }),
    ],
    ['phone checking + malformed -> phone with the code', phoneStep({ pending: 'c1' }), rejected('checkPhone', 'c1', 'PHONE_NUMBER_REQUIRE_10_DIGIT', phoneCheck), phoneStep({ error: 'PHONE_NUMBER_REQUIRE_10_DIGIT' })],
    // Step 3: profile
    ['profile + validate -> profile, validating (entries kept)', profileStep(), pending('validateProfile', 'p1', { phone: PHONE, profile }), profileStep({ profile, pending: 'p1' })],
    [
      'profile validating + OK -> bank',
      profileStep({ profile, pending: 'p1' }),
      fulfilled('validateProfile', 'p1', { message: 'OK' }, { phone: PHONE, profile }),
      bankStep({ verifiedPhone: null }),
    ],
    [
      'profile validating + profile error -> profile with the code',
      profileStep({ profile, pending: 'p1' }),
      rejected('validateProfile', 'p1', 'INVALID_USER_INFO'),
      profileStep({ profile, error: 'INVALID_USER_INFO' }),
    ],
    [
      'profile validating + EXISTING_USER -> phone with the code (entries kept)',
      profileStep({ profile, verifiedPhone: PHONE, pending: 'p1' }),
      rejected('validateProfile', 'p1', 'EXISTING_USER'),
      phoneStep({ profile, verifiedPhone: PHONE, error: 'EXISTING_USER' }),
    ],
    ['profile + back -> phone (entries kept)', profileStep({ profile }), backRequested(), phoneStep({ profile })],
    // Step 4: bank
    ['bank + register -> bank, registering', bankStep(), pending('registerAccount', 'b1', { phone: PHONE, profile, bank }), bankStep({ bank, pending: 'b1' })],
    ['bank registering + OK -> registered', bankStep({ bank, pending: 'b1' }), fulfilled('registerAccount', 'b1', { message: 'OK' }), registered],
    ['bank registering + EXISTING_BANK -> bank with the code', bankStep({ bank, pending: 'b1' }), rejected('registerAccount', 'b1', 'EXISTING_BANK'), bankStep({ bank, error: 'EXISTING_BANK' })],
    [
      'bank registering + BANK_ACCOUNT_NAME_ENG -> bank with the code',
      bankStep({ bank, pending: 'b1' }),
      rejected('registerAccount', 'b1', 'BANK_ACCOUNT_NAME_ENG'),
      bankStep({ bank, error: 'BANK_ACCOUNT_NAME_ENG' }),
    ],
    [
      'bank registering + UNVERIFIED_OTP -> phone, verification forgotten, entries kept',
      bankStep({ bank, pending: 'b1' }),
      rejected('registerAccount', 'b1', 'UNVERIFIED_OTP'),
      phoneStep({ profile, bank, verifiedPhone: null, error: 'UNVERIFIED_OTP' }),
    ],
    ['bank + back -> profile, bank entries kept', bankStep(), backRequested({ bank }), profileStep({ profile, bank, verifiedPhone: PHONE })],
    // Any step: the screen opened again
    ['registered + screen opened -> a fresh registration', registered, registrationOpened(), initialRegister],
    ['bank registering + screen opened -> a fresh registration', bankStep({ pending: 'b1' }), registrationOpened(), initialRegister],
    ['bank with entries + screen left -> nothing kept', bankStep({ bank }), registrationLeft(), initialRegister],
  ])('%s', (_name, before, action, after) => {
    expect(registerReducer(before, action)).toEqual(after);
  });
});

describe('registration machine: refused transitions (state unchanged)', () => {
  it.each<[string, RegisterState, { type: string }]>([
    ['phone confirmed while a code is being sent', phoneStep({ pending: 's1' }), phoneConfirmed({ phone: PHONE })],
    ['phone confirmed on the OTP step', otpStep(), phoneConfirmed({ phone: PHONE })],
    ['phone confirmed on the profile step', profileStep(), phoneConfirmed({ phone: PHONE })],
    ['a second send while one is in flight', phoneStep({ pending: 's1' }), pending('sendOtp', 's2', otpSend)],
    ['a send on the profile step', profileStep(), pending('sendOtp', 's1', otpSend)],
    ['a send answer for another request', phoneStep({ pending: 's1' }), fulfilled('sendOtp', 's0', sent, otpSend)],
    ['a send answer nobody waits for', phoneStep(), fulfilled('sendOtp', 's1', sent, otpSend)],
    ['a send failure for another request', phoneStep({ pending: 's1' }), rejected('sendOtp', 's0', 'OTP_SEND_FAIL', otpSend)],
    ['a late send answer after going back', phoneStep(), fulfilled('sendOtp', 's2', sent, otpSend)],
    ['a second check while one is in flight', phoneStep({ pending: 'c1' }), pending('checkPhone', 'c2', phoneCheck)],
    ['a check on the profile step', profileStep(), pending('checkPhone', 'c1', phoneCheck)],
    ['a check answer for another request', phoneStep({ pending: 'c1' }), fulfilled('checkPhone', 'c0', { message: 'OK' }, phoneCheck)],
    ['a check answer nobody waits for', phoneStep(), fulfilled('checkPhone', 'c1', { message: 'OK' }, phoneCheck)],
    ['a check failure for another request', phoneStep({ pending: 'c1' }), rejected('checkPhone', 'c0', 'EXISTING_USER', phoneCheck)],
    ['a late check answer on the profile step', profileStep({ pending: 'p1' }), fulfilled('checkPhone', 'p1', { message: 'OK' }, phoneCheck)],
    ['a verify on the phone step', phoneStep(), pending('verifyOtp', 'v1')],
    ['a second verify while verifying', otpStep({ pending: 'v1' }), pending('verifyOtp', 'v2')],
    ['a verify answer for another request', otpStep({ pending: 'v1' }), fulfilled('verifyOtp', 'v0', { code: 'OTP_CODE_VALID' })],
    ['a verify answer on the profile step', profileStep(), fulfilled('verifyOtp', 'v1', { code: 'OTP_CODE_VALID' })],
    ['back while verifying', otpStep({ pending: 'v1' }), backRequested()],
    ['a validate on the phone step', phoneStep(), pending('validateProfile', 'p1', { phone: PHONE, profile })],
    ['a validate on the OTP step', otpStep(), pending('validateProfile', 'p1', { phone: PHONE, profile })],
    ['a second validate while validating', profileStep({ pending: 'p1' }), pending('validateProfile', 'p2', { phone: PHONE, profile })],
    ['a validate answer for another request', profileStep({ pending: 'p1' }), fulfilled('validateProfile', 'p0', { message: 'OK' }, { phone: PHONE, profile })],
    ['a validate failure for another request', profileStep({ pending: 'p1' }), rejected('validateProfile', 'p0', 'EXISTING_USER')],
    ['back while validating', profileStep({ pending: 'p1' }), backRequested()],
    ['registering from the profile step (step 4 not reached)', profileStep(), pending('registerAccount', 'b1', { phone: PHONE, profile, bank })],
    ['registering from the phone step', phoneStep(), pending('registerAccount', 'b1', { phone: PHONE, profile, bank })],
    ['a second register while registering', bankStep({ pending: 'b1' }), pending('registerAccount', 'b2', { phone: PHONE, profile, bank })],
    ['a register answer for another request', bankStep({ pending: 'b1' }), fulfilled('registerAccount', 'b0', { message: 'OK' })],
    ['a register failure for another request', bankStep({ pending: 'b1' }), rejected('registerAccount', 'b0', 'EXISTING_BANK')],
    ['back while registering', bankStep({ pending: 'b1' }), backRequested()],
    ['back on the first step', phoneStep(), backRequested()],
    ['back once registered', registered, backRequested()],
    ['anything once registered: a send', registered, pending('sendOtp', 's1', otpSend)],
    ['anything once registered: a register answer', registered, fulfilled('registerAccount', 'b1', { message: 'OK' })],
    ['anything once registered: phone confirmed', registered, phoneConfirmed({ phone: PHONE })],
  ])('refuses %s', (_name, before, action) => {
    expect(registerReducer(before, action)).toBe(before);
  });

  it('counts the OTP step only when OTP registration is on', () => {
    expect(registrationSteps(true)).toEqual(['phone', 'otp', 'profile', 'bank']);
    expect(registrationSteps(false)).toEqual(['phone', 'profile', 'bank']);
  });
});

describe('phoneSubmitted (step 1 through the real store and the fetch boundary)', () => {
  function otpSwitch(on: boolean, checkAnswer: () => Response = () => HttpResponse.json({ message: 'OK' })) {
    const sends: unknown[] = [];
    const checks: unknown[] = [];
    server.use(
      http.get('/api/lookup/registerOTP', () => HttpResponse.json({ registerOTP: on })),
      http.post('/api/otp/send', async ({ request }) => {
        sends.push(await request.json());
        return HttpResponse.json({ otpRef: 'QWERTY', otpToken: 'tok-9' });
      }),
      http.post('/api/account/checkPhone', async ({ request }) => {
        checks.push(await request.json());
        return checkAnswer();
      }),
    );
    return { sends, checks };
  }

  it('with OTP registration off, asks the server about the phone (no code sent) and goes to the profile step', async () => {
    const { sends, checks } = otpSwitch(false);
    const store = makeStore();
    await store.dispatch(phoneSubmitted(PHONE));
    expect(store.getState().register).toEqual(profileStep());
    expect(sends).toEqual([]);
    expect(checks).toEqual([{ username: PHONE }]);
  });

  it('with OTP registration off, a registered phone is told on step 1 (issue 12)', async () => {
    const { sends, checks } = otpSwitch(false, () => errorResponse('EXISTING_USER', 409));
    const store = makeStore();
    await store.dispatch(phoneSubmitted(PHONE));
    expect(store.getState().register).toEqual(phoneStep({ error: 'EXISTING_USER' }));
    expect(sends).toEqual([]);
    expect(checks).toHaveLength(1);
  });

  it('sends a code in the player\'s language and shows its reference when OTP registration is on', async () => {
    const { sends, checks } = otpSwitch(true);
    const store = makeStore();
    await store.dispatch(phoneSubmitted({ phone: PHONE, lang: 'la' }));
    expect(store.getState().register).toEqual(otpStep({ otpRef: 'QWERTY', otpToken: 'tok-9' }));
    expect(sends).toEqual([{ phoneNumber: PHONE, lang: 'la' }]);
    expect(checks).toEqual([]);
  });

  it('skips the OTP step for a phone already verified in this registration', async () => {
    const { sends, checks } = otpSwitch(true);
    const store = makeStore({ register: phoneStep({ verifiedPhone: PHONE, profile }) });
    await store.dispatch(phoneSubmitted(PHONE));
    expect(store.getState().register).toEqual(profileStep({ verifiedPhone: PHONE, profile }));
    expect(sends).toEqual([]);
    expect(checks).toEqual([]);
  });

  it('sends a code when the OTP switch cannot be read (a send is harmless when OTP is off)', async () => {
    server.use(
      http.get('/api/lookup/registerOTP', () => errorResponse('INTERNAL_SERVER_ERROR', 500)),
      http.post('/api/otp/send', () => HttpResponse.json({ code: 'OTP_VERIFIED' })),
    );
    const store = makeStore();
    await store.dispatch(phoneSubmitted(PHONE));
    expect(store.getState().register).toEqual(profileStep({ verifiedPhone: PHONE }));
  });

  it('keeps the step and shows the code when the send fails', async () => {
    server.use(
      http.get('/api/lookup/registerOTP', () => HttpResponse.json({ registerOTP: true })),
      http.post('/api/otp/send', () => errorResponse('EXISTING_USER', 409)),
    );
    const store = makeStore();
    await store.dispatch(phoneSubmitted(PHONE));
    expect(store.getState().register).toEqual(phoneStep({ error: 'EXISTING_USER' }));
  });
});
