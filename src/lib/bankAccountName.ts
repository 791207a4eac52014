/** Banks whose account names must be English letters and spaces only (spec §5, §9). */
export const ENGLISH_NAME_BANKS: ReadonlySet<string> = new Set(['KTB', 'TMB', 'BBL']);

/** Bank account names are forced to upper case as they are typed (spec §5). */
export function upperCaseName(value: string): string {
  return value.toUpperCase();
}

/** True when the name holds only A-Z and spaces (after upper-casing), and at least one letter. */
export function isEnglishName(value: string): boolean {
  return /^[A-Z ]+$/.test(value.toUpperCase()) && /[A-Z]/.test(value.toUpperCase());
}

/** The name as it is sent: upper case, trimmed, inner runs of white space collapsed to one space. */
export function normalizeName(value: string): string {
  return value.toUpperCase().trim().replace(/\s+/g, ' ');
}

/** Whether this bank's account name must be English (KTB, TMB, BBL). */
export function needsEnglishName(bankCode: string | null | undefined): boolean {
  return bankCode != null && ENGLISH_NAME_BANKS.has(bankCode);
}

/** Account numbers are digits only: anything else typed or pasted (dashes, spaces) is dropped. */
export function accountNumberInput(value: string): string {
  return value.replace(/\D/g, '');
}
