import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import type { LedgerAccountsTable } from '../db/schema-ledger';
import { nowIso } from '../db';
import { isPostgres } from '../db/portable';
import { prepared } from '../db/prepared';

/**
 * Ledger accounts. Player accounts (wallet, game mirror) can never go below zero; system accounts are the
 * sources and sinks of money and may. Codes are stable text keys, unique per account:
 *   wallet:{playerId}                 the player's main wallet
 *   game:{playerId}:{gameCode}        the player's balance at one game provider (mirror)
 *   {system}:{currency}               or {system}:{scope}:{currency} (provider_float per game)
 */
export const SYSTEM_ACCOUNTS = [
  'deposits_in_transit', // confirmed deposits come from here (goes negative: money received from outside)
  'payouts_in_transit', // withdrawals waiting for the payout gateway
  'payouts_paid', // withdrawals the gateway paid out (money that left)
  'game_transit', // wallet <-> game transfers waiting for the provider
  'provider_float', // per game: the counterpart of players' wins and losses at that provider
  'bonus_budget',
  'refund_budget',
  'invite_budget',
  'spin_budget',
  'demo_float', // demo mode: starting balances of demo players
  'seamless_house', // per game and player bucket: a seamless aggregator's bets in, wins out (issue 42, docs/seamless-wallet.md)
] as const;
export type SystemAccountName = (typeof SYSTEM_ACCOUNTS)[number];

export type AccountRef =
  | { type: 'wallet'; playerId: number }
  | { type: 'game'; playerId: number; gameCode: string }
  | { type: 'system'; name: SystemAccountName; scope?: string };

export const walletAccount = (playerId: number): AccountRef => ({ type: 'wallet', playerId });
export const gameAccount = (playerId: number, gameCode: string): AccountRef => ({ type: 'game', playerId, gameCode });
export const systemAccount = (name: SystemAccountName, scope?: string): AccountRef => ({ type: 'system', name, scope });

export type LedgerAccount = Omit<LedgerAccountsTable, 'id'> & { id: number };

const CODE_PART = /^[A-Za-z0-9_-]{1,32}$/;

export function accountCode(ref: AccountRef, currency: string): string {
  switch (ref.type) {
    case 'wallet':
      return `wallet:${ref.playerId}`;
    case 'game':
      if (!CODE_PART.test(ref.gameCode)) throw new Error(`bad game code ${ref.gameCode}`);
      return `game:${ref.playerId}:${ref.gameCode}`;
    case 'system':
      if (!SYSTEM_ACCOUNTS.includes(ref.name)) throw new Error(`unknown system account ${ref.name}`);
      if (ref.scope !== undefined && !CODE_PART.test(ref.scope)) throw new Error(`bad scope ${ref.scope}`);
      return ref.scope ? `${ref.name}:${ref.scope}:${currency}` : `${ref.name}:${currency}`;
  }
}

export class LedgerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LedgerError';
  }
}

/** Transit buckets per game (issue 13): players spread over this many game_transit rows per game and currency. */
export const TRANSIT_BUCKETS = 16;

/**
 * The house-side account a transfer of this player to or from this game parks its money in: game_transit scoped
 * by game and player bucket (game_transit:pg-7:THB), so transfers of players in different buckets lock disjoint
 * rows on PostgreSQL instead of queueing on one game_transit:{currency} row. A game code too long for the scope
 * falls back to the bucket alone. Closing a transfer takes the account from its open entry, never from this rule,
 * so transfers opened under the older single account (game_transit:THB) close against it.
 */
export function gameTransitAccount(playerId: number, gameCode: string): AccountRef {
  const bucket = playerId % TRANSIT_BUCKETS;
  const scope = `${gameCode}-${bucket}`;
  return systemAccount('game_transit', CODE_PART.test(scope) ? scope : `b${bucket}`);
}

const currencyById = prepared((db, a: { id: number }) => db.selectFrom('players').select('currency').where('id', '=', a.id));

async function playerCurrency(db: Kysely<DB>, playerId: number): Promise<string> {
  const p = await currencyById.first(db, { id: playerId });
  if (!p) throw new LedgerError(`no player ${playerId}`);
  return p.currency;
}

/** The currency an entry for this player is in: the player's wallet currency. */
export const currencyOf = playerCurrency;

/**
 * Gets or creates the accounts (idempotent: INSERT ... ON CONFLICT DO NOTHING), without locking.
 * Player accounts take the player's currency; a ref whose player has another currency is refused.
 */
export async function ensureAccounts(trx: Kysely<DB>, refs: AccountRef[], currency: string, opts: { lock?: boolean } = {}): Promise<LedgerAccount[]> {
  const codes = refs.map((r) => accountCode(r, currency));
  const lock = !!opts.lock && isPostgres(trx);
  const found = await selectByCodes(trx, codes, lock);
  const byCode = new Map(found.map((a) => [a.code, a as LedgerAccount]));
  const missing = refs.filter((r, i) => !byCode.has(codes[i]));
  if (missing.length) {
    const now = nowIso();
    for (const ref of missing) {
      const code = accountCode(ref, currency);
      if (ref.type !== 'system' && (await playerCurrency(trx, ref.playerId)) !== currency) {
        throw new LedgerError(`account ${code} is not in ${currency}`);
      }
      await trx
        .insertInto('ledger_accounts')
        .values({
          code,
          kind: ref.type,
          player_id: ref.type === 'system' ? null : ref.playerId,
          game_code: ref.type === 'game' ? ref.gameCode : ref.type === 'system' ? (ref.scope ?? null) : null,
          currency,
          balance: 0,
          version: 0,
          allow_negative: ref.type === 'system' ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .onConflict((oc) => oc.column('code').doNothing())
        .execute();
    }
    const again = await selectByCodes(trx, codes, lock);
    for (const a of again) byCode.set(a.code, a as LedgerAccount);
  }
  return codes.map((c) => {
    const a = byCode.get(c);
    if (!a) throw new LedgerError(`account ${c} could not be created`);
    if (a.currency !== currency) throw new LedgerError(`account ${c} is in ${a.currency}, not ${currency}`);
    return { ...a, id: Number(a.id), balance: Number(a.balance), version: Number(a.version) };
  });
}

/**
 * Locks the accounts for the rest of the transaction, always in ascending id order so that two transactions
 * never wait for each other in a cycle. PostgreSQL: SELECT ... FOR UPDATE. SQLite: the single connection
 * already serializes transactions, so a plain read is enough. Returns fresh rows by id.
 */
export async function lockAccounts(trx: Transaction<DB>, ids: number[]): Promise<Map<number, LedgerAccount>> {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  let q = trx.selectFrom('ledger_accounts').selectAll().where('id', 'in', sorted).orderBy('id');
  if (isPostgres(trx)) q = q.forUpdate();
  const rows = await q.execute();
  return new Map(rows.map((a) => [Number(a.id), { ...a, id: Number(a.id), balance: Number(a.balance), version: Number(a.version) } as LedgerAccount]));
}

const pairByCodes = prepared((db, a: { c1: string; c2: string }) => db.selectFrom('ledger_accounts').selectAll().where('code', 'in', [a.c1, a.c2]).orderBy('id'));
const pairByCodesLocked = prepared((db, a: { c1: string; c2: string }) =>
  db.selectFrom('ledger_accounts').selectAll().where('code', 'in', [a.c1, a.c2]).orderBy('id').forUpdate(),
);

/**
 * The accounts with these codes, in id order; with `lock` (PostgreSQL only) FOR UPDATE, which locks them in that
 * order, so ensureAccounts(..., { lock: true }) replaces ensureAccounts + lockAccounts with one statement. Accounts
 * created after a first locked read get fresh (higher) ids from the sequence, so locking them in the second read
 * still follows the id order. Two codes (the common entry) run a prepared query; other lengths are built.
 */
async function selectByCodes(trx: Kysely<DB>, codes: string[], lock: boolean) {
  if (codes.length === 2) return (lock ? pairByCodesLocked : pairByCodes).all(trx, { c1: codes[0], c2: codes[1] });
  let q = trx.selectFrom('ledger_accounts').selectAll().where('code', 'in', codes).orderBy('id');
  if (lock) q = q.forUpdate();
  return q.execute();
}

/** Rows as the ledger uses them (PostgreSQL returns bigint columns as text). */
export const normAccount = (a: { id: number | string; balance: number | string; version: number | string }): LedgerAccount =>
  ({ ...a, id: Number(a.id), balance: Number(a.balance), version: Number(a.version) }) as unknown as LedgerAccount;
