import { parseAmountInput } from './money';

/** Spec §5 and §9: a transfer moves at least 1 baht. */
export const TRANSFER_MINIMUM = 1;

/** A rule broken, as the translation key of its message and the values the message names. */
export type RuleError = { key: string; values?: Record<string, number> };

/** Spec §5 Transfer: both accounts chosen, different, and at least 1 baht (with at most 2 decimals). */
export function validateTransfer(input: { from: string; to: string; amount: string }): RuleError | null {
  if (!input.from || !input.to) return { key: 'transfer.selectAccount' };
  if (input.from === input.to) return { key: 'transfer.cannotTransfer' };
  const amount = parseAmountInput(input.amount);
  if (amount === null) return { key: 'wallet.invalidAmount' };
  if (amount < TRANSFER_MINIMUM) return { key: 'transfer.minimum', values: { min: TRANSFER_MINIMUM } };
  return null;
}

/** Spec §5 Withdraw: withdrawMin <= amount <= withdrawMax, the message naming the bound. */
export function validateWithdraw(text: string, limits: { withdrawMin: number; withdrawMax: number }): RuleError | null {
  const amount = parseAmountInput(text);
  if (amount === null) return { key: 'wallet.invalidAmount' };
  if (amount < limits.withdrawMin) return { key: 'withdraw.minimum', values: { min: limits.withdrawMin } };
  if (amount > limits.withdrawMax) return { key: 'withdraw.maximum', values: { max: limits.withdrawMax } };
  return null;
}

/**
 * The game account modal's amount (spec §2, §5): 'none' when there is nothing to transfer (empty or 0: the
 * play buttons skip the transfer, 'transfer only' focuses the field), otherwise the amount or the broken rule.
 */
export type GameAmount = { kind: 'none' } | { kind: 'amount'; amount: number } | { kind: 'invalid'; error: RuleError };

export function readGameAmount(text: string): GameAmount {
  if (text.trim() === '') return { kind: 'none' };
  const amount = parseAmountInput(text);
  if (amount === null) return { kind: 'invalid', error: { key: 'wallet.invalidAmount' } };
  if (amount <= 0) return { kind: 'none' };
  if (amount < TRANSFER_MINIMUM) return { kind: 'invalid', error: { key: 'transfer.minimum', values: { min: TRANSFER_MINIMUM } } };
  return { kind: 'amount', amount };
}
