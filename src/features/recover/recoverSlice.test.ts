import type { UnknownAction } from '@reduxjs/toolkit';

import { mutationAction } from '../../test/support/rtkActions';
import { backRequested, initialRecover, recoverReducer, recoveryLeft, recoveryOpened, type RecoverState } from './recoverSlice';

/** The recovery machine's transition table (issue 40 item 4): what each step does with each event. */
type Endpoint = 'requestPasswordReset' | 'verifyResetCode' | 'resetPassword';
const pending = (name: Endpoint, id: string, args: unknown) => mutationAction(name, 'pending', id, args);
const fulfilled = (name: Endpoint, id: string, args: unknown, payload: unknown) => mutationAction(name, 'fulfilled', id, args, payload);
const rejected = (name: Endpoint, id: string, args: unknown, message: string) =>
  mutationAction(name, 'rejected', id, args, { status: 400, data: { message } });

const PHONE = '0812345678';
const send = { phoneNumber: PHONE, lang: 'en' };
const verify = { otpToken: 'tok-1', otpCode: '123456' };
const reset = { otpToken: 'tok-1', newPassword: 'brand-new' };

const phone = (over: Partial<Extract<RecoverState, { step: 'phone' }>> = {}): RecoverState => ({ step: 'phone', phone: '', pending: null, error: null, ...over });
const code = (over: Partial<Extract<RecoverState, { step: 'code' }>> = {}): RecoverState => ({
  step: 'code', phone: PHONE, otpRef: 'ABCDEF', otpToken: 'tok-1', pending: null, error: null, ...over,
});
const password = (over: Partial<Extract<RecoverState, { step: 'password' }>> = {}): RecoverState => ({
  step: 'password', phone: PHONE, otpToken: 'tok-1', pending: null, error: null, ...over,
});
const done: RecoverState = { step: 'done' };

describe('recovery machine: allowed transitions', () => {
  it.each<[string, RecoverState, UnknownAction, RecoverState]>([
    ['phone + send -> phone, waiting for that request', phone(), pending('requestPasswordReset', 'r1', send), phone({ phone: PHONE, pending: 'r1' })],
    ['phone with an error + send -> the error cleared', phone({ error: 'REQUEST_LIMIT' }), pending('requestPasswordReset', 'r1', send), phone({ phone: PHONE, pending: 'r1' })],
    ['phone + its answer -> code with the reference and token', phone({ phone: PHONE, pending: 'r1' }), fulfilled('requestPasswordReset', 'r1', send, { otpRef: 'ABCDEF', otpToken: 'tok-1' }), code()],
    ['phone + its refusal -> phone with the code', phone({ phone: PHONE, pending: 'r1' }), rejected('requestPasswordReset', 'r1', send, 'REQUEST_LIMIT_1MIN'), phone({ phone: PHONE, error: 'REQUEST_LIMIT_1MIN' })],
    ['code + a new code asked -> waiting', code(), pending('requestPasswordReset', 'r2', send), code({ pending: 'r2' })],
    ['code + the new code -> code with the new token', code({ pending: 'r2' }), fulfilled('requestPasswordReset', 'r2', send, { otpRef: 'GHJKLM', otpToken: 'tok-2' }), code({ otpRef: 'GHJKLM', otpToken: 'tok-2' })],
    ['code + verify -> waiting', code(), pending('verifyResetCode', 'r3', verify), code({ pending: 'r3' })],
    ['code + code right -> password', code({ pending: 'r3' }), fulfilled('verifyResetCode', 'r3', verify, { code: 'OTP_CODE_VALID' }), password()],
    ['code + code wrong -> code with the error', code({ pending: 'r3' }), rejected('verifyResetCode', 'r3', verify, 'OTP_CODE_INVALID'), code({ error: 'OTP_CODE_INVALID' })],
    ['code + back -> phone, keeping the number', code({ error: 'OTP_BLOCK' }), backRequested(), phone({ phone: PHONE })],
    ['password + save -> waiting', password(), pending('resetPassword', 'r4', reset), password({ pending: 'r4' })],
    ['password + saved -> done', password({ pending: 'r4' }), fulfilled('resetPassword', 'r4', reset, { message: 'OK' }), done],
    ['password + too short -> password with the error', password({ pending: 'r4' }), rejected('resetPassword', 'r4', reset, 'PASSWORD_TOO_SHORT'), password({ error: 'PASSWORD_TOO_SHORT' })],
    ['password + code expired -> phone with the error (start again)', password({ pending: 'r4' }), rejected('resetPassword', 'r4', reset, 'OTP_EXPIRED'), phone({ phone: PHONE, error: 'OTP_EXPIRED' })],
    ['done + page opened -> a fresh start', done, recoveryOpened(), initialRecover],
    ['code + page left -> nothing kept', code(), recoveryLeft(), initialRecover],
  ])('%s', (_name, before, action, after) => {
    expect(recoverReducer(before, action)).toEqual(after);
  });
});

describe('recovery machine: events a step does not allow are ignored', () => {
  it.each<[string, RecoverState, UnknownAction]>([
    ['a second send while one is in flight', phone({ phone: PHONE, pending: 'r1' }), pending('requestPasswordReset', 'r9', send)],
    ['an answer to another request', phone({ phone: PHONE, pending: 'r1' }), fulfilled('requestPasswordReset', 'r0', send, { otpRef: 'X', otpToken: 'Y' })],
    ['an answer nobody waits for', phone(), fulfilled('requestPasswordReset', 'r1', send, { otpRef: 'X', otpToken: 'Y' })],
    ['a verify on the phone step', phone(), pending('verifyResetCode', 'r3', verify)],
    ['a verify for another code than the one shown', code(), pending('verifyResetCode', 'r3', { otpToken: 'tok-old', otpCode: '1' })],
    ['a verify answer after the player went back', phone({ phone: PHONE }), fulfilled('verifyResetCode', 'r3', verify, { code: 'OTP_CODE_VALID' })],
    ['a save before the code was verified', code(), pending('resetPassword', 'r4', reset)],
    ['a save answer for another request', password({ pending: 'r4' }), fulfilled('resetPassword', 'r5', reset, { message: 'OK' })],
    ['back while a verify is in flight', code({ pending: 'r3' }), backRequested()],
    ['back from the password step', password(), backRequested()],
    ['a send after the password was set', done, pending('requestPasswordReset', 'r6', send)],
    ['a late refusal after the password was set', done, rejected('resetPassword', 'r4', reset, 'OTP_EXPIRED')],
  ])('%s', (_name, before, action) => {
    expect(recoverReducer(before, action)).toBe(before);
  });
});
