import type { Kysely } from 'kysely';
import type { DB, GamesTable } from '../../db/schema';
import type { GameProvider } from '../../adapters/games/types';
import { AppError, conflict, notFound, unauthorized, unprocessable } from '../../errors';
import { assertSessionOpen } from '../../lib/session';
import { ensureAccounts, gameAccount, toBaht } from '../../ledger';
import { currencyOf } from '../../ledger/accounts';
import { findGameAccount } from '../../transfers/repository';
import { refreshGameBalance, type TransferDeps } from '../../transfers/protocol';
import { cachedActiveGames, findGame, insertGameAccount, listActiveGames, listGameAccounts, updateGamePassword } from './repository';
import { readWalletRow } from './view-query';
import type { ProviderCall } from '../../lib/request-context';
import type { GameSecrets } from './game-secrets';

export interface SlotView {
  code: string;
  name: string;
  category: GamesTable['category'];
  isActive: boolean;
  amount: number;
  ftWalletSlot: number;
  logo: string;
  background: string;
  web: string | null;
  android: string | null;
  ios: string | null;
  /** Issue 42: a seamless game (the aggregator moves the wallet's money per bet): no game account, nothing in it. */
  seamless: boolean;
}

export interface WalletView {
  profile: { name: string; username: string; _id: string; coin: number };
  bankAccount: { bankAccountName: string; bankAccountNo: string; bankCode: string; bank: { nameTH: string; nameEN: string } };
  wallet: { amount: number };
  invite: { amount: number; success: number; fail: number };
  slots: SlotView[];
}

/** A game account as a slot shows it: password null when the link needs none or the stored one does not open. */
type SlotAccount = { username: string; password: string | null };

/** Whether the game's web button carries the password (and so the wallet view must open it). */
const linkNeedsPassword = (game: GamesTable) => !!Number(game.has_web) && !!Number(game.login_with_password);

/**
 * The auto-login path the SPA follows for a game's web button: GET /api/autoLogin/{game}/{username}, with the
 * password for games that log in with one. null when the game has no web client or no account yet, or when
 * the stored password does not open with GAME_SECRET_KEY (logged; the rest of the wallet view still answers).
 */
function webLink(game: GamesTable, acct: SlotAccount | undefined): string | null {
  if (!acct || !Number(game.has_web)) return null;
  const base = `/api/autoLogin/${encodeURIComponent(game.code)}/${encodeURIComponent(acct.username)}`;
  if (!Number(game.login_with_password)) return base;
  return acct.password === null ? null : `${base}/${encodeURIComponent(acct.password)}`;
}

/** Issue 42: the game plays from the wallet itself (docs/seamless-wallet.md); nothing is ever transferred to it. */
export const isSeamless = (game: Pick<GamesTable, 'wallet_mode'>) => game.wallet_mode === 'seamless';

function slotView(game: GamesTable, acct: SlotAccount | undefined, balance: number): SlotView {
  const seamless = isSeamless(game);
  return {
    code: game.code,
    name: game.name,
    category: game.category,
    // A seamless game has no account and holds nothing: were an account or a mirror left from a game that once was a
    // transfer game, the card would still offer a transfer the routes refuse (SEAMLESS_GAME).
    isActive: !seamless && !!acct,
    amount: seamless ? 0 : toBaht(balance),
    ftWalletSlot: Number(game.ft_wallet_slot),
    logo: game.logo,
    background: game.background,
    web: seamless ? null : webLink(game, acct),
    android: game.android,
    ios: game.ios,
    seamless,
  };
}

/**
 * GET /api/wallet's answer. Its statement reads the request's session too (`sessionId`, the route's
 * config.sessionInQuery): refused here as app.authenticate would refuse it, before anything is shown.
 */
export async function walletView(db: Kysely<DB>, secrets: GameSecrets, playerId: number, sessionId: string): Promise<WalletView> {
  // Games from a short-lived cache (repository.ts); the player's figures in one statement, fresh every time (view-query.ts).
  const [games, row] = await Promise.all([cachedActiveGames(db), readWalletRow(db, playerId, sessionId)]);
  if (!row) throw unauthorized('invalid-token');
  assertSessionOpen(row.session);
  const { player: p, wallet, games: balances, accounts, invite } = row;
  const gamesByCode = new Map(games.map((g) => [g.code, g]));
  const byGame = new Map<string, SlotAccount>(
    accounts.map((a) => {
      const game = gamesByCode.get(a.game_code);
      const password = game && linkNeedsPassword(game) ? secrets.tryOpen(a.password, { playerId, gameCode: a.game_code }) : null;
      return [a.game_code, { username: a.username, password }];
    }),
  );
  return {
    profile: { name: p.name, username: p.phone, _id: String(p.id), coin: Number(p.coin) },
    bankAccount: {
      bankAccountName: p.bank_account_name,
      bankAccountNo: p.bank_account_no,
      bankCode: p.bank_code,
      bank: { nameTH: p.name_th ?? '', nameEN: p.name_en ?? '' },
    },
    wallet: { amount: toBaht(wallet) },
    // Earned from invitees' first deposits and not received yet; invitees who did and did not deposit (docs/invite-wheel.md).
    invite: { amount: toBaht(invite.amount), success: invite.success, fail: invite.fail },
    slots: games.map((g) => {
      const account = byGame.get(g.code);
      const balance = balances.get(g.code) ?? 0;
      return (account || balance) && !isSeamless(g) ? slotView(g, account, balance) : idleSlotOf(g);
    }),
  };
}

/**
 * The slot of a game the player has not opened (no account, nothing in it), as most of a player's games are: the same
 * for every player, so one frozen object per game row (the rows come from the games cache, new ones at each refresh).
 */
const idleSlots = new WeakMap<GamesTable, SlotView>();
function idleSlotOf(game: GamesTable): SlotView {
  let slot = idleSlots.get(game);
  if (!slot) {
    slot = Object.freeze(slotView(game, undefined, 0));
    idleSlots.set(game, slot);
  }
  return slot;
}

/** Refreshes every activated game's mirror from its provider (failures leave that mirror as it was). */
export async function refreshAllGames(deps: TransferDeps, playerId: number): Promise<void> {
  const [games, accounts] = await Promise.all([listActiveGames(deps.db), listGameAccounts(deps.db, playerId)]);
  // A seamless game has no balance of its own to ask for (issue 42).
  const active = new Set(games.filter((g) => !isSeamless(g)).map((g) => g.code));
  await Promise.all(
    accounts.filter((a) => active.has(a.game_code)).map((a) => refreshGameBalance(deps, playerId, a.game_code, a.username)),
  );
}

/**
 * The active game `code` of a game-account route (activate, account, reset password, auto-login): NO_GAME, or
 * 422 SEAMLESS_GAME for a seamless one (issue 42): it has no game account, the player opens it with
 * GET /api/seamless/launch/:code. Refused before the provider is asked or anything is written.
 */
async function requireGame(db: Kysely<DB>, code: string): Promise<GamesTable> {
  const g = await findGame(db, code);
  if (!g || !Number(g.active)) throw notFound('NO_GAME');
  if (isSeamless(g)) throw unprocessable('SEAMLESS_GAME');
  return g;
}

/** Opens the player's account at a game: SLOT_ALREADY_ACTIVE, SLOT_ACTIVATE_FAIL (provider), NO_GAME. */
export async function activateGame(db: Kysely<DB>, provider: GameProvider, secrets: GameSecrets, playerId: number, code: string, call?: ProviderCall): Promise<SlotView> {
  const game = await requireGame(db, code);
  if (await findGameAccount(db, playerId, code)) throw conflict('SLOT_ALREADY_ACTIVE');
  let creds;
  try {
    creds = await provider.createPlayer(code, playerId, call);
  } catch {
    throw new AppError(502, 'SLOT_ACTIVATE_FAIL');
  }
  const inserted = await insertGameAccount(db, {
    playerId,
    gameCode: code,
    username: creds.username,
    sealedPassword: secrets.seal(creds.password),
    sealedEvent: creds.event ? secrets.seal(JSON.stringify(creds.event)) : null,
  });
  if (!inserted) throw conflict('SLOT_ALREADY_ACTIVE');
  const currency = await currencyOf(db, playerId);
  await db.transaction().execute((trx) => ensureAccounts(trx, [gameAccount(playerId, code)], currency));
  return slotView(game, creds, 0);
}

export interface Credentials {
  username: string;
  password: string;
  event?: Record<string, unknown>;
}

/** The provider's event object, opened; undefined when there is none. */
function openEvent(secrets: GameSecrets, sealed: string | null, at: { playerId: number; gameCode: string }, strict: boolean) {
  if (sealed === null) return undefined;
  const json = strict ? secrets.open(sealed, at) : secrets.tryOpen(sealed, at);
  return json === null ? undefined : (JSON.parse(json) as Record<string, unknown>);
}

/** The caller's own credentials at a game, opened from their sealed form (500 INTERNAL_SERVER_ERROR, logged, if they do not open). */
export async function gameCredentials(db: Kysely<DB>, secrets: GameSecrets, playerId: number, code: string): Promise<Credentials> {
  await requireGame(db, code);
  const a = await findGameAccount(db, playerId, code);
  if (!a) throw notFound('SLOT_NO_ACCOUNT');
  const at = { playerId, gameCode: code };
  const password = secrets.open(a.sealedPassword, at);
  const event = openEvent(secrets, a.sealedEvent, at, true);
  return event ? { username: a.username, password, event } : { username: a.username, password };
}

/**
 * A new password from the provider, stored sealed. Needs only the username, so it also recovers an account
 * whose stored password no longer opens (GAME_SECRET_KEY lost or changed).
 */
export async function resetGamePassword(db: Kysely<DB>, provider: GameProvider, secrets: GameSecrets, playerId: number, code: string, call?: ProviderCall): Promise<Credentials> {
  await requireGame(db, code);
  const a = await findGameAccount(db, playerId, code);
  if (!a) throw notFound('SLOT_NO_ACCOUNT');
  let password: string;
  try {
    password = await provider.resetPassword(code, a.username, call);
  } catch {
    throw new AppError(502, 'SLOT_RESET_PASSWORD_FAIL');
  }
  await updateGamePassword(db, playerId, code, secrets.seal(password));
  const event = openEvent(secrets, a.sealedEvent, { playerId, gameCode: code }, false);
  return event ? { username: a.username, password, event } : { username: a.username, password };
}

/** The game's auto-login link for the caller's own account there (SLOT_NO_ACCOUNT for anyone else's username). */
export async function autoLoginLink(
  db: Kysely<DB>,
  provider: GameProvider,
  secrets: GameSecrets,
  playerId: number,
  code: string,
  username: string,
  password?: string,
  call?: ProviderCall,
): Promise<string> {
  const game = await requireGame(db, code);
  const a = await findGameAccount(db, playerId, code);
  if (!a || a.username !== username) throw notFound('SLOT_NO_ACCOUNT');
  const pass = password ?? (Number(game.login_with_password) ? secrets.open(a.sealedPassword, { playerId, gameCode: code }) : undefined);
  try {
    return await provider.launchUrl(code, username, pass, call);
  } catch (e) {
    if (e instanceof AppError && e.statusCode < 500) throw e; // WRONG_PASSWORD, SLOT_NO_ACCOUNT from the provider
    throw new AppError(502, 'GAME_ACTIVATION_FAIL');
  }
}
