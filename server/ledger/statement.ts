import type { Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { MovementStatus, StatementsTable } from '../db/schema-ledger';
import { nowIso } from '../db';
import { prepared } from '../db/prepared';
import { preparedPart, type MovementPart } from './movement';

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
type StatementRow = Omit<StatementsTable, 'id' | 'updated_at'>;
// Compiled once (server/db/prepared.ts): both run in every transfer.
const insertLine = prepared((db, a: StatementRow) =>
  db.insertInto('statements').values({
    player_id: a.player_id,
    statement_type: a.statement_type,
    status: a.status,
    from_account: a.from_account,
    to_account: a.to_account,
    amount: a.amount,
    currency: a.currency,
    ref_type: a.ref_type,
    ref_id: a.ref_id,
    linked_type: a.linked_type,
    linked_description: a.linked_description,
    note: a.note,
    created_at: a.created_at,
    updated_at: a.created_at,
  }),
);
const setLineStatus = prepared((db, a: { status: MovementStatus; updated_at: string; ref_type: string; ref_id: string }) =>
  db.updateTable('statements').set({ status: a.status, updated_at: a.updated_at }).where('ref_type', '=', a.ref_type).where('ref_id', '=', a.ref_id),
);

function lineRow(s: StatementInput): StatementRow {
  return {
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
    created_at: nowIso(),
  };
}

export async function writeStatement(trx: Transaction<DB>, s: StatementInput): Promise<void> {
  await insertLine.run(trx, lineRow(s));
}

/** The statement line as a part of a movement (moveMoney, server/ledger/movement.ts): written with its entries. */
export function statementLine(s: StatementInput): MovementPart {
  return preparedPart(insertLine, lineRow(s));
}

/** A line moved to SUCCESS or FAILED, as a part of the movement that settles or reverses it. */
export function statementStatus(refType: string, refId: string, status: MovementStatus): MovementPart {
  return preparedPart(setLineStatus, { status, updated_at: nowIso(), ref_type: refType, ref_id: refId });
}

/** Moves a statement line to SUCCESS or FAILED, in the transaction that settles or reverses the movement. */
export async function setStatementStatus(trx: Transaction<DB>, refType: string, refId: string, status: MovementStatus): Promise<void> {
  await setLineStatus.run(trx, { status, updated_at: nowIso(), ref_type: refType, ref_id: refId });
}
