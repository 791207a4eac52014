import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import type { MovementStatus } from '../../db/schema-ledger';
import type { SeamlessKind, SeamlessStatus } from '../../db/schema-seamless';
import type { SeamlessAggregator } from '../../adapters/aggregator';
import { nowIso } from '../../db';
import { isPostgres } from '../../db/portable';
import { AppError } from '../../errors';
import { DuplicateEntryError, InsufficientFundsError, lockPlayer, moveMoney, postEntry, reverseEntry, systemAccount, walletAccount, type AccountRef } from '../../ledger';
import type { EntryInput, PostedEntry } from '../../ledger/journal';
import { TRANSIT_BUCKETS } from '../../ledger/accounts';
import { applyTurnover } from '../../wagering/deposit-turnover';
import { checkLossAllowed, loadLimits } from '../play-limits';
import { playerOfUserId, seamlessUserId } from './users';
import { RS, type RsStatus } from './statuses';
import { unitsOfSatang } from './units';
import type { BalanceRequest, BetRequest, InfoRequest, RollbackRequest, WalletAnswer, WinRequest } from './schemas';
import {
  addBetToRound,
  addWinToRound,
  balanceContext,
  betTailPostgres,
  callContext,
  insertTransaction,
  markBonusForCheck,
  markRolledBack,
  playerInfo,
  removeBetFromRound,
  winTailPostgres,
  writeRoundLine,
  type CallContext,
  type RoundTotals,
  type TransactionRow,
} from './repository';

/**
 * The Wallet API's work (docs/seamless-wallet.md): each bet, win and rollback is ONE transaction under the player's
 * lock holding everything it changes: the journal entry (wallet <-> seamless_house, reference
 * `seamless:{aggregator}:{transaction_uuid}`), the seamless_transactions row with the first answer, the round
 * (bet_rounds: stake and win summed, `open` until the closing win), the deposits it wagers, the bonus it counts for,
 * and the round's statement line. A retry of a transaction_uuid answers what the first call answered.
 */
export interface SeamlessDeps {
  db: Kysely<DB>;
  aggregator: SeamlessAggregator;
  now: () => Date;
  /** PLAY_MINUTE_MS: a minute of the session limit. */
  minuteMs: number;
  log?: { error(obj: object, msg: string): void };
}

const WALLET = 'WALLET';

/** The house side of a seamless game, spread per game and player bucket like game_transit (DESIGN-42, docs/ledger.md). */
export function seamlessHouseAccount(playerId: number, gameCode: string): AccountRef {
  const bucket = playerId % TRANSIT_BUCKETS;
  const scope = `${gameCode}-${bucket}`;
  return systemAccount('seamless_house', /^[A-Za-z0-9_-]{1,32}$/.test(scope) ? scope : `b${bucket}`);
}

/** The journal entry's reference of a transaction: its transaction_uuid, unique per aggregator. */
const entryReference = (aggregator: string, uuid: string) => `seamless:${aggregator}:${uuid}`;

/** Our round key: the aggregator's round per player (a live game's round is shared by every player at the table). */
export const roundKey = (user: string, round: string) => `${user}:${round}`;

const num = (v: number | string | null | undefined): number => (v === null || v === undefined ? 0 : Number(v));

/**
 * The player of a user id in its one spelling (u000042, not u0000042): the user id is in our round keys and answers,
 * so two spellings of one player would be two players' rounds.
 */
function playerOf(user: string): number | null {
  const id = playerOfUserId(user);
  return id !== null && seamlessUserId(id) === user ? id : null;
}

/** Hub88's "Wallet API response", its fields in the documented order; currency and balance once the player is known. */
function answer(status: RsStatus, request_uuid: string, user?: string, currency?: string | null, balanceSatang?: number | null): WalletAnswer {
  return shaped({ user, status, request_uuid, currency: currency || undefined, balance: balanceSatang === undefined || balanceSatang === null ? undefined : unitsOfSatang(balanceSatang) });
}

function shaped(a: WalletAnswer): WalletAnswer {
  const out = {} as WalletAnswer;
  if (a.user !== undefined) out.user = a.user;
  out.status = a.status;
  if (a.request_uuid !== undefined) out.request_uuid = a.request_uuid;
  if (a.currency !== undefined) out.currency = a.currency;
  if (a.balance !== undefined) out.balance = a.balance;
  return out;
}

/** The stored form of an answer: without request_uuid, which each retry brings its own. */
function stored(a: WalletAnswer): string {
  return JSON.stringify({ ...a, request_uuid: undefined });
}

/** The first answer again, with this retry's request_uuid (Hub88 matches answers to its requests by it). */
function replayed(json: string, request_uuid: string): WalletAnswer {
  return shaped({ ...(JSON.parse(json) as WalletAnswer), request_uuid });
}

/** POST /user/info. */
export async function userInfo(deps: SeamlessDeps, req: InfoRequest): Promise<Record<string, unknown>> {
  const playerId = playerOf(req.user);
  const p = playerId === null ? undefined : await playerInfo(deps.db, playerId);
  if (!p) return { ...answer(RS.UNKNOWN, req.request_uuid, req.user) };
  return {
    user: req.user,
    status: RS.OK,
    request_uuid: req.request_uuid,
    // The country of the player's currency: the wallet is in THB in Thailand, LAK in Laos.
    country: p.currency === 'LAK' ? 'LA' : 'TH',
    registration_date: p.created_at.slice(0, 10),
  };
}

/** POST /user/balance: the wallet, for a live token of this user. */
export async function userBalance(deps: SeamlessDeps, req: BalanceRequest): Promise<WalletAnswer> {
  const playerId = playerOf(req.user);
  const c = playerId === null ? undefined : await balanceContext(deps.db, playerId, req.token);
  if (!c || c.s_player === null || Number(c.s_player) !== playerId || c.s_aggregator !== deps.aggregator.name) return answer(RS.INVALID_TOKEN, req.request_uuid, req.user);
  if (c.s_expires !== null && c.s_expires <= nowIso(deps.now())) return answer(RS.TOKEN_EXPIRED, req.request_uuid, req.user, c.currency, num(c.balance));
  return answer(RS.OK, req.request_uuid, req.user, c.currency, num(c.balance));
}

/** What a money call decided, before its row is stored. */
interface Decision {
  status: RsStatus;
  /** Satang after the call (the wallet). */
  balance: number;
  /** Stored and replayed to a retry: every answer of a call that got as far as the player (see `unstored`). */
  store: boolean;
  row: Pick<TransactionRow, 'game_code' | 'round_id' | 'amount' | 'currency' | 'reference_transaction_uuid'> & { status?: SeamlessStatus };
}

/** A retry of the whole call: a concurrent call of the same transaction_uuid (or the same money) got there first. */
class Race extends Error {}

interface MoneyCall {
  kind: SeamlessKind;
  user: string;
  request_uuid: string;
  transaction_uuid: string;
  reference: string | null;
  token: string;
  game_code: string;
  /** What identifies the call beside its uuid (Hub88's RS_ERROR_DUPLICATE_TRANSACTION: another reference, amount, currency, round, user or game). */
  same: (ctx: CallContext, playerId: number) => boolean;
  /** The answer when the user is not a player of ours (nothing stored: no player to store it for). */
  noPlayer: RsStatus;
  decide: (trx: Transaction<DB>, ctx: CallContext, playerId: number, at: Date) => Promise<Decision>;
}

/**
 * Runs one money call: its transaction under the player's lock, the context read, a replay or a duplicate, else the
 * decision and its row. Three tries when a concurrent call wins a unique key first (the same transaction_uuid, or
 * the same journal reference, from another connection on PostgreSQL) or the wallet moved between the read and the
 * entry: the next try reads what that call committed and answers from it.
 */
async function moneyCall(deps: SeamlessDeps, call: MoneyCall): Promise<WalletAnswer> {
  const playerId = playerOf(call.user);
  if (playerId === null) return answer(call.noPlayer, call.request_uuid, call.user);
  const agg = deps.aggregator.name;
  for (let attempt = 1; ; attempt++) {
    try {
      return await deps.db.transaction().execute(async (trx) => {
        const at = deps.now();
        await lockPlayer(trx, playerId);
        const ctx = await callContext(trx, {
          player_id: playerId,
          wallet_code: `wallet:${playerId}`,
          aggregator: agg,
          uuid: call.transaction_uuid,
          reference: call.reference ?? '',
          token: call.token,
          game_code: call.game_code,
          now: nowIso(at),
        });
        if (!ctx) return answer(call.noPlayer, call.request_uuid, call.user);
        if (ctx.t_id !== null) {
          if (call.same(ctx, playerId) && ctx.t_answer) return replayed(ctx.t_answer, call.request_uuid);
          return answer(RS.DUPLICATE_TRANSACTION, call.request_uuid, call.user, ctx.player_currency, num(ctx.wallet_balance));
        }
        const d = await call.decide(trx, ctx, playerId, at);
        const a = answer(d.status, call.request_uuid, call.user, ctx.player_currency, d.balance);
        if (d.store) {
          const fresh = await insertTransaction(trx, {
            aggregator: agg,
            transaction_uuid: call.transaction_uuid,
            kind: call.kind,
            player_id: playerId,
            ...d.row,
            status: d.row.status ?? (d.status === RS.OK ? 'OK' : 'REFUSED'),
            answer: stored(a),
            at: nowIso(at),
          });
          if (!fresh) throw new Race();
        }
        return a;
      });
    } catch (e) {
      const race = e instanceof Race || e instanceof DuplicateEntryError || e instanceof InsufficientFundsError || isUniqueViolation(e);
      if (race && attempt < 3) continue;
      throw e;
    }
  }
}

function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === '23505' || err?.code === 'SQLITE_CONSTRAINT_UNIQUE' || /UNIQUE constraint failed/.test(err?.message ?? '');
}

/** The key a row stores for the game: ours when the aggregator's game_code is one of our games, else its code. */
const gameKey = (ctx: CallContext, raw: string | null) => ctx.g_code ?? (raw ?? '').slice(0, 32);

/**
 * The round's one statement line (docs/seamless-wallet.md "The statement"): open: WALLET -> game, the stake,
 * IN_PROGRESS; closed: the net (a win above the stake game -> WALLET, else WALLET -> game), SUCCESS; every bet rolled
 * back and nothing won: FAILED, with the stake that was rolled back.
 */
async function writeLine(trx: Transaction<DB>, r: RoundTotals, game: string, playerId: number, currency: string, at: Date, rolledBack?: number): Promise<void> {
  const bet = num(r.bet);
  const win = num(r.win);
  let line: { status: MovementStatus; from: string; to: string; amount: number };
  if (rolledBack !== undefined && bet === 0 && win === 0) line = { status: 'FAILED', from: WALLET, to: game, amount: rolledBack };
  else if (num(r.open) === 1) line = { status: 'IN_PROGRESS', from: WALLET, to: game, amount: bet };
  else if (win > bet) line = { status: 'SUCCESS', from: game, to: WALLET, amount: win - bet };
  else line = { status: 'SUCCESS', from: WALLET, to: game, amount: bet - win };
  await writeRoundLine(trx, { playerId, ...line, currency, refId: `${game}:${r.id}`, at: nowIso(at) });
}

/**
 * A bet's or a win's journal entry, in the call's transaction (under the player's lock). On PostgreSQL one statement,
 * ledger_post (moveMoney; the accounts' lock, the checks, the entry, the balances and the postings were four round
 * trips: issue 43, a bet or a win 9 -> 6); on SQLite postEntry, whose statements are function calls, not round trips.
 * The refusals are postEntry's on both (InsufficientFundsError, DuplicateEntryError: a retry of the call).
 */
async function postInCall(trx: Transaction<DB>, entry: EntryInput & { currency: string }): Promise<PostedEntry> {
  if (!isPostgres(trx)) return postEntry(trx, entry);
  const { entries } = await moveMoney(trx, () => ({ parts: [], entries: [entry] }));
  return entries[0];
}

const refuse = (status: RsStatus, ctx: CallContext, row: Decision['row'], store = true): Decision => ({ status, balance: num(ctx.wallet_balance), store, row });

/** The stored form of the RS_OK answer a call is about to give (the PostgreSQL tail stores it with the round). */
const answerOf = (req: { user: string; request_uuid: string }, ctx: CallContext, balance: number) => stored(answer(RS.OK, req.request_uuid, req.user, ctx.player_currency, balance));

/** The transaction row's part of a PostgreSQL tail (repository.ts `betTailPostgres`, `winTailPostgres`). */
function tailOf(aggregator: string, req: { transaction_uuid: string }, kind: SeamlessKind, row: Decision['row'], playerId: number, answerJson: string) {
  return {
    player_id: playerId,
    tx_aggregator: aggregator,
    tx_uuid: req.transaction_uuid,
    tx_kind: kind,
    tx_game: row.game_code,
    tx_round: row.round_id,
    tx_reference: row.reference_transaction_uuid,
    tx_amount: row.amount,
    tx_currency: row.currency,
    tx_answer: answerJson,
  };
}

/** May this player bet now (docs/responsible-play.md)? A status when not, checked in the bet's transaction. */
async function playRefusal(trx: Transaction<DB>, ctx: CallContext, playerId: number, stake: number, at: Date, minuteMs: number): Promise<RsStatus | null> {
  if (ctx.player_status !== 'active' || ctx.restriction !== null) return RS.USER_DISABLED;
  if (num(ctx.limit_rows) === 0) return null;
  const limits = await loadLimits(trx, playerId, at);
  const minutes = limits.session.value;
  // The session limit counts from the login session the game was launched in (the token's session_id).
  if (minutes !== null && ctx.session_started && at.getTime() - Date.parse(ctx.session_started) >= minutes * minuteMs) return RS.USER_DISABLED;
  if (stake > 0) {
    try {
      await checkLossAllowed(trx, playerId, stake, at, limits);
    } catch (e) {
      if (e instanceof AppError && e.code === 'LOSS_LIMIT') return RS.LIMIT_REACHED;
      throw e;
    }
  }
  return null;
}

/** POST /transaction/bet: wallet -> seamless_house. */
export function bet(deps: SeamlessDeps, req: BetRequest): Promise<WalletAnswer> {
  const agg = deps.aggregator.name;
  const stake = req.is_free ? 0 : req.satang;
  const round = roundKey(req.user, req.round);
  return moneyCall(deps, {
    kind: 'bet',
    user: req.user,
    request_uuid: req.request_uuid,
    transaction_uuid: req.transaction_uuid,
    reference: null,
    token: req.token,
    game_code: req.game_code,
    noPlayer: RS.INVALID_TOKEN,
    same: (ctx, playerId) =>
      ctx.t_kind === 'bet' && num(ctx.t_player) === playerId && ctx.t_round === req.round && num(ctx.t_amount) === stake && ctx.t_currency === req.currency && ctx.t_game === gameKey(ctx, req.game_code),
    decide: async (trx, ctx, playerId, at) => {
      const row: Decision['row'] = { game_code: gameKey(ctx, req.game_code), round_id: req.round, amount: stake, currency: req.currency, reference_transaction_uuid: null };
      // A refusal is stored (and replayed) only when the row can hold what was asked (a currency of 3 letters).
      const fits = req.currency.length <= 3;
      if (ctx.s_player === null || num(ctx.s_player) !== playerId || ctx.s_aggregator !== agg) return refuse(RS.INVALID_TOKEN, ctx, row, fits);
      if (ctx.s_expires !== null && ctx.s_expires <= nowIso(at)) return refuse(RS.TOKEN_EXPIRED, ctx, row, fits);
      if (req.currency !== ctx.player_currency) return refuse(RS.WRONG_CURRENCY, ctx, row, fits);
      if (ctx.g_code === null || num(ctx.g_active) !== 1) return refuse(RS.INVALID_GAME, ctx, row);
      // A rollback of this uuid came first (the bet was late): it stays rolled back.
      if (ctx.rolled_back_by !== null) return refuse(RS.TRANSACTION_ROLLED_BACK, ctx, row);
      const play = await playRefusal(trx, ctx, playerId, stake, at, deps.minuteMs);
      if (play) return refuse(play, ctx, row);
      let balance = num(ctx.wallet_balance);
      if (stake > balance) return refuse(RS.NOT_ENOUGH_MONEY, ctx, row);
      const game = ctx.g_code;
      if (stake > 0) {
        const posted = await postInCall(trx, {
          kind: 'seamless_bet',
          reference: entryReference(agg, req.transaction_uuid),
          playerId,
          currency: req.currency,
          postings: [
            { account: walletAccount(playerId), amount: -stake },
            { account: seamlessHouseAccount(playerId, game), amount: stake },
          ],
        });
        balance = posted.postings[0].balanceAfter;
      }
      const roundArgs = {
        game_code: game,
        round_id: round,
        username: req.user,
        player_id: playerId,
        bet: stake,
        // A bet that closes its round (Hub88's round_closed) has no win to wait for.
        open: req.round_closed !== true,
        user_bonus_id: ctx.bonus_id === null ? null : num(ctx.bonus_id),
        at: nowIso(at),
      };
      let r: RoundTotals;
      const onPostgres = isPostgres(trx);
      if (onPostgres) {
        const tail = await betTailPostgres(trx, { ...roundArgs, currency: req.currency, ...tailOf(agg, req, 'bet', row, playerId, answerOf(req, ctx, balance)) });
        if (!tail.stored) throw new Race();
        r = tail.round;
      } else {
        r = await addBetToRound(trx, roundArgs);
        await writeLine(trx, r, game, playerId, req.currency, at);
      }
      if (stake > 0 && num(ctx.open_turnover) > 0) await applyTurnover(trx, [{ playerId, bet: stake, playedAt: nowIso(at) }], at);
      if (r.user_bonus_id !== null) await markBonusForCheck(trx, num(r.user_bonus_id));
      return { status: RS.OK, balance, store: !onPostgres, row };
    },
  });
}

/** POST /transaction/win: seamless_house -> wallet, for a bet of the same user and round that stands. */
export function win(deps: SeamlessDeps, req: WinRequest): Promise<WalletAnswer> {
  const agg = deps.aggregator.name;
  return moneyCall(deps, {
    kind: 'win',
    user: req.user,
    request_uuid: req.request_uuid,
    transaction_uuid: req.transaction_uuid,
    reference: req.reference_transaction_uuid,
    // A win is paid whatever became of the game session: no token is read.
    token: '',
    game_code: req.game_code,
    noPlayer: RS.TRANSACTION_DOES_NOT_EXIST,
    same: (ctx, playerId) =>
      ctx.t_kind === 'win' &&
      num(ctx.t_player) === playerId &&
      ctx.t_round === req.round &&
      ctx.t_reference === req.reference_transaction_uuid &&
      num(ctx.t_amount) === req.satang &&
      ctx.t_currency === req.currency &&
      ctx.t_game === gameKey(ctx, req.game_code),
    decide: async (trx, ctx, playerId, at) => {
      const row: Decision['row'] = { game_code: gameKey(ctx, req.game_code), round_id: req.round, amount: req.satang, currency: req.currency, reference_transaction_uuid: req.reference_transaction_uuid };
      if (req.currency !== ctx.player_currency) return refuse(RS.WRONG_CURRENCY, ctx, row, req.currency.length <= 3);
      // Any seamless game of the aggregator, active or not: a game switched off still pays the rounds played on it.
      if (ctx.g_code === null) return refuse(RS.INVALID_GAME, ctx, row);
      // Not stored: a retry after the bet arrived (or once the bet is found) is answered afresh.
      if (ctx.r_id === null || ctx.r_kind !== 'bet' || num(ctx.r_player) !== playerId || ctx.r_round !== req.round || ctx.r_status !== 'OK' || !ctx.r_game) {
        return refuse(RS.TRANSACTION_DOES_NOT_EXIST, ctx, row, false);
      }
      const game = ctx.r_game;
      let balance = num(ctx.wallet_balance);
      if (req.satang > 0) {
        const posted = await postInCall(trx, {
          kind: 'seamless_win',
          reference: entryReference(agg, req.transaction_uuid),
          playerId,
          currency: req.currency,
          postings: [
            { account: seamlessHouseAccount(playerId, game), amount: -req.satang },
            { account: walletAccount(playerId), amount: req.satang },
          ],
        });
        balance = posted.postings[1].balanceAfter;
      }
      // A win closes its round unless Hub88 says more is to come (round_closed: false).
      const roundArgs = { game_code: game, round_id: roundKey(req.user, req.round), win: req.satang, open: req.round_closed === false };
      const onPostgres = isPostgres(trx);
      let r: RoundTotals | undefined;
      if (onPostgres) {
        const tail = await winTailPostgres(trx, { ...roundArgs, currency: req.currency, at: nowIso(at), ...tailOf(agg, req, 'win', row, playerId, answerOf(req, ctx, balance)) });
        if (tail && !tail.stored) throw new Race();
        r = tail?.round;
      } else {
        r = await addWinToRound(trx, roundArgs);
        if (r) await writeLine(trx, r, game, playerId, req.currency, at);
      }
      if (!r) throw new Error(`the round of bet ${req.reference_transaction_uuid} has no row`);
      if (r.user_bonus_id !== null) await markBonusForCheck(trx, num(r.user_bonus_id));
      return { status: RS.OK, balance, store: !onPostgres, row };
    },
  });
}

/**
 * POST /transaction/rollback: reverses the referenced bet (its journal entry, its stake in the round). A bet that
 * never arrived is recorded as rolled back (RS_OK) so that it is refused if it comes late; a rollback of a win (or of
 * a rollback) is refused; a bet rolled back already answers RS_ERROR_TRANSACTION_ROLLED_BACK to another rollback.
 */
export function rollback(deps: SeamlessDeps, req: RollbackRequest): Promise<WalletAnswer> {
  const agg = deps.aggregator.name;
  return moneyCall(deps, {
    kind: 'rollback',
    user: req.user,
    request_uuid: req.request_uuid,
    transaction_uuid: req.transaction_uuid,
    reference: req.reference_transaction_uuid,
    token: '',
    game_code: req.game_code ?? '',
    noPlayer: RS.TRANSACTION_DOES_NOT_EXIST,
    same: (ctx, playerId) => ctx.t_kind === 'rollback' && num(ctx.t_player) === playerId && ctx.t_reference === req.reference_transaction_uuid,
    decide: async (trx, ctx, playerId, at) => {
      const currency = ctx.player_currency ?? '';
      const row: Decision['row'] = { game_code: ctx.r_game ?? gameKey(ctx, req.game_code), round_id: ctx.r_round ?? req.round ?? '', amount: 0, currency, reference_transaction_uuid: req.reference_transaction_uuid };
      if (ctx.r_id === null) return { status: RS.OK, balance: num(ctx.wallet_balance), store: true, row };
      if (num(ctx.r_player) !== playerId || ctx.r_kind !== 'bet') return refuse(RS.TRANSACTION_DOES_NOT_EXIST, ctx, row);
      if (ctx.r_status === 'ROLLED_BACK') return refuse(RS.TRANSACTION_ROLLED_BACK, ctx, row);
      // A bet we refused moved nothing: there is nothing to give back.
      if (ctx.r_status !== 'OK') return { status: RS.OK, balance: num(ctx.wallet_balance), store: true, row };
      const stake = num(ctx.r_amount);
      const game = ctx.r_game ?? '';
      let balance = num(ctx.wallet_balance);
      if (stake > 0) {
        const posted = await reverseEntry(trx, {
          originalReference: entryReference(agg, req.reference_transaction_uuid),
          reference: entryReference(agg, req.transaction_uuid),
          kind: 'seamless_rollback',
        });
        const wallet = posted.postings.find((p) => p.code === `wallet:${playerId}`);
        if (!wallet) throw new Error(`the reversal of ${req.reference_transaction_uuid} does not credit the wallet`);
        balance = wallet.balanceAfter;
      }
      if (!(await markRolledBack(trx, num(ctx.r_id), nowIso(at)))) throw new Race();
      const r = await removeBetFromRound(trx, { game_code: game, round_id: roundKey(req.user, ctx.r_round ?? ''), bet: stake });
      if (r) {
        if (r.user_bonus_id !== null) await markBonusForCheck(trx, num(r.user_bonus_id));
        await writeLine(trx, r, game, playerId, currency, at, stake);
      }
      return { status: RS.OK, balance, store: true, row: { ...row, amount: stake } };
    },
  });
}
