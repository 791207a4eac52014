import { readAmount } from '../../lib/amountInput';
import type { Locale } from '../../lib/locale';
import type { QrBank } from './qrBanks';

/** Quick picks per bank (spec §9). */
export const QR_QUICK_PICKS: Record<QrBank, readonly number[]> = {
  KBANK: [10, 20, 50, 100, 500, 1000],
  WW: [100, 200, 300, 500, 1000],
  E2P: [50, 100, 200, 500, 1000],
};

/** The smallest QR per bank (spec §5, §9). The server may be configured higher and then refuses with QR_FAIL. */
export const QR_MINIMUM: Record<QrBank, number> = { KBANK: 1, WW: 100, E2P: 50 };

/** Spec §5: nothing below 1 baht is ever created, whatever the bank. */
export const QR_ABSOLUTE_MINIMUM = 1;

/** The amount field's text as a number of baht read in the player's language (lib/amountInput.ts); NaN when it is not one. */
export function parseAmount(text: string, locale: Locale): number {
  const reading = readAmount(text, locale);
  return reading.kind === 'amount' ? reading.satang / 100 : NaN;
}

/**
 * What the create button does with this amount (spec §5):
 * - 'disabled': KBANK at 0 or below (or nothing typed) — the button is disabled;
 * - 'ignored': below 1 baht or below the bank's minimum (the server's, from the deposit lookup, else the
 *   spec's) — pressing it sends nothing;
 * - 'create': a QR is asked for.
 */
export type CreateDecision = 'disabled' | 'ignored' | 'create';

export function qrCreateDecision(bank: QrBank, amount: number, minimum = QR_MINIMUM[bank]): CreateDecision {
  if (bank === 'KBANK' && !(amount > 0)) return 'disabled';
  if (!Number.isFinite(amount) || amount < QR_ABSOLUTE_MINIMUM || amount < minimum) return 'ignored';
  return 'create';
}

/** Whole seconds left before `expiresAt`, never below 0. */
export function secondsLeft(expiresAt: number, now: number): number {
  return Math.max(0, Math.ceil((expiresAt - now) / 1000));
}

/** The countdown's last minute (issue 40 item 9): it turns urgent so the player pays now or makes a new QR. */
export const URGENT_SECONDS = 60;

export function isCountdownUrgent(seconds: number): boolean {
  return seconds <= URGENT_SECONDS;
}

/** mm:ss of a number of seconds (minutes keep counting past 59). */
export function formatCountdown(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  return `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}
