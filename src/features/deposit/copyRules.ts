import { isEnglishName, needsEnglishName } from '../../lib/bankAccountName';
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
