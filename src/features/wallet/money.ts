import { readAmount } from '../../lib/amountInput';
import type { Locale } from '../../lib/locale';

/**
 * Money on the client. The wire carries baht as JSON numbers with at most 2 decimals; sums are made in integer
 * satang so that 0.1 + 0.2 never shows as 0.30000000000000004.
 */

/** A wire amount in satang, or null when it is not a finite number. */
export function toSatang(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return null;
  return Math.round(value * 100);
}

/** The sum of the amounts that are numbers, in satang; anything else counts as nothing. */
export function sumSatang(values: readonly unknown[]): number {
  return values.reduce<number>((total, value) => total + (toSatang(value) ?? 0), 0);
}

export const fromSatang = (satang: number): number => satang / 100;

/** The card's provider credit: amount x ftWalletSlot, computed from satang; null when either is not a number. */
export function providerCredit(amount: unknown, factor: unknown): number | null {
  const satang = toSatang(amount);
  if (satang === null || typeof factor !== 'number' || !Number.isFinite(factor)) return null;
  return Math.round(satang * factor * 100) / 10000;
}

/**
 * What the player typed in an amount field, in baht, read in the player's language (lib/amountInput.ts: Lao
 * 1.000,50, Thai and English 1,000.50), or null for anything else (empty, letters, 3 decimals, negative, marks in
 * the other language's roles).
 */
export function parseAmountInput(text: string, locale: Locale): number | null {
  const reading = readAmount(text, locale);
  return reading.kind === 'amount' ? fromSatang(reading.satang) : null;
}
