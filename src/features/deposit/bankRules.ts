import type { DepositBank } from './depositApi';

/**
 * Issue 40 item 9: the account rules of the bank-transfer list, one way for every bank.
 *
 * An account number of digits (any spaces or dashes the operator typed are dropped) is shown in groups of three,
 * the last group four when three would leave one digit alone: 10 digits 012-345-6789, 12 digits 020-123-456-789,
 * 13 digits 010-100-012-3456. A number with letters (a merchant id) is shown as stored.
 */
export function groupAccountNumber(value: string): string {
  const digits = accountDigits(value);
  if (!/^\d{5,}$/.test(digits)) return value;
  const groups: string[] = [];
  let rest = digits;
  while (rest.length > 4) {
    groups.push(rest.slice(0, 3));
    rest = rest.slice(3);
  }
  groups.push(rest);
  return groups.join('-');
}

/** What a bank app's account field takes: the digits alone when the number is only digits and separators. */
export function accountDigits(value: string): string {
  return /^[\d\s-]+$/.test(value) ? value.replace(/[\s-]/g, '') : value;
}

/** The player's currency as the profile answers it (BAHT or LAK; '' or unknown: baht, the wallet's own). */
export type PlayerCurrency = string | null | undefined;

/**
 * The receiving accounts for this player's market, decided by their currency: a LAK player sees the LAK
 * accounts, anyone else the baht ones (an account without a currency is a baht account). Until the profile is
 * known the baht accounts show, never a foreign-currency one a Thai player could pay into by mistake.
 */
export function banksForCurrency<B extends Pick<DepositBank, 'currency'>>(banks: readonly B[], currency: PlayerCurrency): B[] {
  const lak = currency === 'LAK';
  return banks.filter((b) => {
    const own = (b.currency ?? '').toUpperCase();
    const isLak = own === 'LAK';
    return lak ? isLak : !isLak && (own === '' || own === 'THB' || own === 'BAHT');
  });
}
