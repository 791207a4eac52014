import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { MovementStatus, StatementsTable } from '../db/schema-ledger';
import { nowIso } from '../db';

/*
 * Statement lines are written beside the ledger: every feature that moves money (transfers, withdrawals, deposits,
 * bonus, invite, wheel, play limits) writes its line here, in the transaction of its journal entry. The statement
 * plugin (server/plugins/statement) only reads them.
 */

export interface StatementInput {
  playerId: number;
  type: StatementsTable['statement_type'];
  status: MovementStatus;
  /** WALLET, a game code, a bank code... as the statement screen shows them. */
  from: string;
  to: string;
  /** Satang, > 0. */
  amount: number;
  currency: string;
  /** What the line is about, unique per (refType, refId): transfer/{transferId}, withdrawal/{id}, deposit/{id}... */
  refType: string;
  refId: string;
  linked?: { type: NonNullable<StatementsTable['linked_type']>; description: string };
  /** Shown to the player with the line: why staff rejected a deposit (issue 14). */
  note?: string;
}

/** Writes a statement line; call it in the same transaction as the journal entry that moves the money. */
export async function writeStatement(trx: Transaction<DB>, s: StatementInput): Promise<void> {
  const now = nowIso();
  await trx
    .insertInto('statements')
    .values({
      player_id: s.playerId,
      statement_type: s.type,
      status: s.status,
      from_account: s.from,
      to_account: s.to,
      amount: s.amount,
      currency: s.currency,
      ref_type: s.refType,
      ref_id: s.refId,
      linked_type: s.linked?.type ?? null,
      linked_description: s.linked?.description ?? null,
      note: s.note ?? null,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

/** Moves a statement line to SUCCESS or FAILED, in the transaction that settles or reverses the movement. */
export async function setStatementStatus(trx: Transaction<DB>, refType: string, refId: string, status: MovementStatus): Promise<void> {
  await trx.updateTable('statements').set({ status, updated_at: nowIso() }).where('ref_type', '=', refType).where('ref_id', '=', refId).execute();
}
