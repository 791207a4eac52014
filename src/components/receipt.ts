import { createSelector } from '@reduxjs/toolkit';

import type { RootState } from '../app/store';
import { walletApi } from '../core/walletApi';

/**
 * A receipt (issue 12): what one money movement was, in the terms the player checks it by. Built from a
 * movement's answer right after it (wallet feature) or from its statement line later (statement feature), so
 * the same movement reads the same both times: the reference is the movement's own id (transferId,
 * withdrawalId, the deposit's reference), which the statement line carries as `reference`.
 */
export interface ReceiptData {
  /** transfer, withdraw, deposit, or another statement type (shown as a transaction). */
  kind: string;
  /** Baht. */
  amount: number;
  /** Account codes: WALLET, a game code, a bank code, BONUS... */
  from: string;
  to: string;
  /** ISO 8601. */
  at: string;
  reference: string;
  /** SUCCESS, IN_PROGRESS or FAILED. */
  status: string;
}

/** The answer of a money-moving POST (transfer, transferAll, withdrawAll). */
export interface MoveReceiptAnswer {
  status: string;
  amount: number;
  transferId?: string;
  withdrawalId?: string;
}

/**
 * The receipt of a transfer or withdrawal just answered: the amount the server says it moved (for a transfer of
 * the whole wallet only the server knows it), the accounts asked for, and the answer's id.
 */
export function receiptFromMove(kind: 'transfer' | 'withdraw', accounts: { from: string; to: string }, answer: MoveReceiptAnswer, at: string): ReceiptData {
  return {
    kind,
    amount: answer.amount,
    from: accounts.from,
    to: accounts.to,
    at,
    reference: (kind === 'withdraw' ? answer.withdrawalId : answer.transferId) ?? '',
    status: answer.status,
  };
}

/** The fields of a statement line (POST /api/statement) a receipt needs. */
export interface ReceiptStatementLine {
  _id: string;
  statementType: string;
  status: string;
  from: string;
  to: string;
  amount: number;
  createdAt: string;
  /** The movement's id; older servers do not send it, and then the line's own id stands in. */
  reference?: string;
}

export function receiptFromStatement(line: ReceiptStatementLine): ReceiptData {
  return {
    kind: line.statementType,
    amount: line.amount,
    from: line.from,
    to: line.to,
    at: line.createdAt,
    reference: line.reference || line._id,
    status: line.status,
  };
}

/** The kinds with a receipt title of their own; anything else is a 'transaction'. */
export function receiptKind(kind: string): 'transfer' | 'withdraw' | 'deposit' | 'other' {
  return kind === 'transfer' || kind === 'withdraw' || kind === 'deposit' ? kind : 'other';
}

/** Spec §4 statement status: in progress unless it says SUCCESS or FAILED. */
export function receiptStatus(status: string): 'success' | 'inProgress' | 'failed' {
  return status === 'SUCCESS' ? 'success' : status === 'FAILED' ? 'failed' : 'inProgress';
}

/** Names for account codes the player's own wallet knows: game names and the player's bank. */
export interface AccountNames {
  games: Record<string, string>;
  bank: { code: string; nameTH: string; nameEN: string; accountNo: string } | null;
}

const selectWalletData = (state: RootState) => walletApi.endpoints.getWallet.select()(state).data;

export const selectAccountNames = createSelector([selectWalletData], (wallet): AccountNames => ({
  games: Object.fromEntries((wallet?.slots ?? []).map((slot) => [slot.code, slot.name])),
  bank: wallet?.bankAccount
    ? { code: wallet.bankAccount.bankCode, nameTH: wallet.bankAccount.bank.nameTH, nameEN: wallet.bankAccount.bank.nameEN, accountNo: wallet.bankAccount.bankAccountNo }
    : null,
}));

/**
 * An account code as the receipt names it: a translated name for WALLET, BONUS... (`known` says whether a code
 * has one), the game's name, the player's bank with the account's last digits, else the code itself.
 */
export function receiptAccountName(
  code: string,
  names: AccountNames,
  language: string,
  known: (code: string) => string | null,
): string {
  const translated = /^[A-Z_]+$/.test(code) ? known(code) : null;
  if (translated) return translated;
  if (names.games[code]) return names.games[code];
  const bank = names.bank;
  if (bank && bank.code === code) {
    const name = (language === 'en' ? bank.nameEN : bank.nameTH) || bank.code;
    return bank.accountNo ? `${name} ···${bank.accountNo.replace(/\D/g, '').slice(-4)}` : name;
  }
  return code;
}
