import { amountExample, readAmount } from '../../lib/amountInput';
import type { Locale } from '../../lib/locale';
import { fromSatang, toSatang } from './money';

/** Spec §5 and §9: a transfer moves at least 1 baht. */
export const TRANSFER_MINIMUM = 1;

/** A rule broken, as the translation key of its message and the values the message names. */
export type RuleError = { key: string; values?: Record<string, number | string> };

/** The field's amount in baht, or why it is not one: empty and unreadable say so, the other language's marks too. */
function typedAmount(text: string, locale: Locale): { amount: number } | { error: RuleError } {
  const reading = readAmount(text, locale);
  if (reading.kind === 'amount') return { amount: fromSatang(reading.satang) };
  if (reading.kind === 'empty') return { error: { key: 'wallet.invalidAmount' } };
  return { error: reading.reason === 'ambiguous' ? { key: 'wallet.ambiguousAmount', values: amountExample(locale) } : { key: 'wallet.invalidAmount' } };
}

/** Spec §5 Transfer: both accounts chosen, different, and at least 1 baht (with at most 2 decimals). */
export function validateTransfer(input: { from: string; to: string; amount: string }, locale: Locale): RuleError | null {
  if (!input.from || !input.to) return { key: 'transfer.selectAccount' };
  if (input.from === input.to) return { key: 'transfer.cannotTransfer' };
  const typed = typedAmount(input.amount, locale);
  if ('error' in typed) return typed.error;
  if (typed.amount < TRANSFER_MINIMUM) return { key: 'transfer.minimum', values: { min: TRANSFER_MINIMUM } };
  return null;
}

/**
 * Spec §5 Withdraw: withdrawMin <= amount <= withdrawMax, the message naming the bound; and (issue 40) no more than
 * the wallet holds, said before anything is sent.
 */
export function validateWithdraw(text: string, limits: { withdrawMin: number; withdrawMax: number }, locale: Locale, balance?: number): RuleError | null {
  const typed = typedAmount(text, locale);
  if ('error' in typed) return typed.error;
  if (typed.amount < limits.withdrawMin) return { key: 'withdraw.minimum', values: { min: limits.withdrawMin } };
  if (balance !== undefined && toSatang(typed.amount)! > (toSatang(balance) ?? 0)) return { key: 'withdraw.overBalance', values: { balance } };
  if (typed.amount > limits.withdrawMax) return { key: 'withdraw.maximum', values: { max: limits.withdrawMax } };
  return null;
}

/**
 * The game account modal's amount (spec §2, §5): 'none' when there is nothing to transfer (empty or 0: the
 * play buttons skip the transfer, 'transfer only' focuses the field), otherwise the amount or the broken rule.
 */
export type GameAmount = { kind: 'none' } | { kind: 'amount'; amount: number } | { kind: 'invalid'; error: RuleError };

export function readGameAmount(text: string, locale: Locale): GameAmount {
  if (text.trim() === '') return { kind: 'none' };
  const typed = typedAmount(text, locale);
  if ('error' in typed) return { kind: 'invalid', error: typed.error };
  if (typed.amount <= 0) return { kind: 'none' };
  if (typed.amount < TRANSFER_MINIMUM) return { kind: 'invalid', error: { key: 'transfer.minimum', values: { min: TRANSFER_MINIMUM } } };
  return { kind: 'amount', amount: typed.amount };
}

/** "Withdraw all" (issue 40): the wallet's balance, at most the maximum, in satang; null before both are known. */
export function withdrawAllSatang(balance: number | undefined, limits: { withdrawMax: number } | undefined): number | null {
  const held = toSatang(balance);
  const max = toSatang(limits?.withdrawMax);
  return held === null || max === null ? null : Math.max(0, Math.min(held, max));
}

/** The game modal's quick amounts (issue 40), in baht. */
export const GAME_QUICK_AMOUNTS = [100, 300, 500, 1000] as const;
