import { badRequest } from '../../errors';
import type { AccountRules } from './rules';

/** Pure checks of the registration and profile fields (RULES.md "Accounts", spec §5). Each throws the code of spec §8. */

export const INVALID_USER_INFO = 'INVALID_USER_INFO';

/** Trims and collapses runs of white space; an empty result is a missing field. */
export function requiredText(value: string | undefined): string {
  const v = (value ?? '').trim().replace(/\s+/g, ' ');
  if (!v) throw badRequest(INVALID_USER_INFO);
  return v;
}

/** th: 10 digits starting with 0; lao: 8 to 11 digits. */
export function checkPhone(phone: string | undefined, market: 'th' | 'lao'): string {
  const v = (phone ?? '').trim();
  if (!v) throw badRequest(INVALID_USER_INFO);
  const ok = market === 'lao' ? /^\d{8,11}$/.test(v) : /^0\d{9}$/.test(v);
  if (!ok) throw badRequest('PHONE_NUMBER_REQUIRE_10_DIGIT');
  return v;
}

/** Missing: INVALID_USER_INFO; shorter than PASSWORD_MIN_LENGTH: PASSWORD_TOO_SHORT, which names the rule (issue 12). */
export function checkPassword(password: string | undefined, rules: AccountRules): string {
  // Passwords are taken as typed (no trimming): a space may be part of one.
  if (!password) throw badRequest(INVALID_USER_INFO);
  if ([...password].length < rules.passwordMinLength) throw badRequest('PASSWORD_TOO_SHORT');
  return password;
}

export interface BankRow { code: string; bank_type: string; english_name_only: number }

/** A known bank that players can hold an account with (not a PAYMENT channel such as WW or E2P). */
export function checkBank(bank: BankRow | undefined): BankRow {
  if (!bank || bank.bank_type === 'PAYMENT') throw badRequest('INVALID_BANK');
  return bank;
}

/** Upper-cased, trimmed, single-spaced; KTB, TMB and BBL accept only A-Z and spaces. */
export function checkBankAccountName(name: string | undefined, englishOnly: boolean): string {
  const v = requiredText(name).toUpperCase();
  if (englishOnly && !/^[A-Z]+(?: [A-Z]+)*$/.test(v)) throw badRequest('BANK_ACCOUNT_NAME_ENG');
  return v;
}

export function checkBankAccountNo(no: string | undefined, rules: AccountRules): string {
  const v = (no ?? '').trim();
  const re = new RegExp(`^\\d{${rules.bankAccountNoMin},${rules.bankAccountNoMax}}$`);
  if (!re.test(v)) throw badRequest(INVALID_USER_INFO);
  return v;
}

/** Wire currency (BAHT | LAK) to the stored one (THB | LAK). LAK only in the Lao market; absent means the market's own. */
export function checkCurrency(currency: string | undefined, market: 'th' | 'lao'): 'THB' | 'LAK' {
  if (currency === undefined || currency === '') return market === 'lao' ? 'LAK' : 'THB';
  if (currency === 'BAHT') return 'THB';
  if (currency === 'LAK' && market === 'lao') return 'LAK';
  throw badRequest(INVALID_USER_INFO);
}

export const toWireCurrency = (stored: string): 'BAHT' | 'LAK' => (stored === 'LAK' ? 'LAK' : 'BAHT');

/** `PR{id}`, any case; anything else names nobody. */
export function parseInviteCode(code: string | undefined): number | null {
  const m = /^PR(\d{1,15})$/i.exec((code ?? '').trim());
  if (!m) return null;
  const id = Number(m[1]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

