import { isEnglishName, needsEnglishName } from '../../lib/bankAccountName';
import { accountDigits } from './bankRules';
import type { DepositBank } from './depositApi';

/** The player's registered account as the wallet (or profile) answer carries it. */
export interface PlayerBankAccount {
  bankCode: string;
  bankAccountName: string;
}

/**
 * Spec §4, KBANK auto deposit: the operator matches the incoming transfer by the sender's name, which
 * KTB, TMB and BBL only report in English. So when the player banks there and their registered name has
 * other characters, copying the KBANK account first asks them to correct the name.
 */
export function copyNeedsEnglishName(entry: Pick<DepositBank, 'bankCode' | 'mode'>, player: PlayerBankAccount | null | undefined): boolean {
  if (entry.bankCode !== 'KBANK' || entry.mode !== 'AUTO' || !player) return false;
  return needsEnglishName(player.bankCode) && !isEnglishName(player.bankAccountName);
}

/** The KBANK auto deposit's copy action copies the account details (spec §2 deposit modal), not only the number. */
export function copiesDetails(entry: Pick<DepositBank, 'bankCode' | 'mode'>): boolean {
  return entry.bankCode === 'KBANK' && entry.mode === 'AUTO';
}

/**
 * What the copy action puts on the clipboard: for KBANK auto deposit the bank (in the player's language), the
 * account number and the account name, one a line (pasted into a note or chat they stay apart); for any other
 * account the number alone, which bank apps take in their account field. The number is its digits only (issue 40
 * item 9): the grouping dashes on screen and any the operator typed would be refused by a bank app's field.
 */
export function copyTextFor(entry: Pick<DepositBank, 'bankCode' | 'mode' | 'bankAccountNo' | 'bankAccountName'>, bankName: string): string {
  const number = accountDigits(entry.bankAccountNo);
  return copiesDetails(entry) ? [bankName, number, entry.bankAccountName].join('\n') : number;
}
