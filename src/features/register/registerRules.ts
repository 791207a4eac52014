import type { Market } from '../../core/build';
import { isEnglishName, needsEnglishName } from '../../lib/bankAccountName';
import type { BankDraft } from './registerApi';

/** Client rules of spec §5 for each step. Each answers translation keys per field; empty means valid. */
export type FieldErrors<K extends string> = Partial<Record<K, string>>;

/** Phone length (spec §9): 10 digits outside the Lao build. */
export const PHONE_DIGITS = 10;

export function phoneError(phone: string, market: Market): string | null {
  const value = phone.trim();
  if (value === '') return 'register.phoneRequired';
  if (market === 'lao') {
    // No 10-digit rule in the Lao build (spec §5); the server takes 8 to 11 digits there (docs/accounts.md).
    if (!/^\d+$/.test(value)) return 'register.phoneNumeric';
    return value.length >= 8 && value.length <= 11 ? null : 'register.phoneLaoLength';
  }
  return new RegExp(`^\\d{${PHONE_DIGITS}}$`).test(value) ? null : 'register.phoneDigits';
}

export interface ProfileValues {
  name: string;
  password: string;
  confirmPassword: string;
  sourceCode: string;
}

/**
 * Name, password, confirmation and source are required; the two passwords must match; the password has at least
 * `passwordMinLength` characters when the server's rule is known (the info lookup), else the server tells.
 */
export function profileErrors(values: ProfileValues, passwordMinLength?: number): FieldErrors<keyof ProfileValues> {
  const errors: FieldErrors<keyof ProfileValues> = {};
  if (values.name.trim() === '') errors.name = 'register.required';
  if (values.password === '') errors.password = 'register.required';
  else if (passwordMinLength !== undefined && [...values.password].length < passwordMinLength) errors.password = 'register.passwordTooShort';
  if (values.confirmPassword === '') errors.confirmPassword = 'register.required';
  else if (values.password !== '' && values.password !== values.confirmPassword) errors.confirmPassword = 'register.passwordMismatch';
  if (values.sourceCode === '') errors.sourceCode = 'register.chooseRequired';
  return errors;
}

/** Bank, account number, first and last name are required; KTB, TMB and BBL names are A-Z and spaces only. */
export function bankErrors(values: BankDraft): FieldErrors<'bankCode' | 'bankAccountNo' | 'firstName' | 'lastName' | 'ageConfirmed'> {
  const errors: FieldErrors<'bankCode' | 'bankAccountNo' | 'firstName' | 'lastName' | 'ageConfirmed'> = {};
  if (values.bankCode === '') errors.bankCode = 'register.chooseRequired';
  if (values.bankAccountNo.trim() === '') errors.bankAccountNo = 'register.required';
  for (const field of ['firstName', 'lastName'] as const) {
    const value = values[field].trim();
    if (value === '') errors[field] = 'register.required';
    else if (needsEnglishName(values.bankCode) && !isEnglishName(value)) errors[field] = 'register.englishOnly';
  }
  if (values.ageConfirmed !== true) errors.ageConfirmed = 'register.ageRequired';
  return errors;
}
