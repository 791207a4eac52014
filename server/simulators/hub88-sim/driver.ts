import crypto, { type KeyObject } from 'node:crypto';
import { signBody, verifyBody } from '../../adapters/aggregator/signature';
import { seededRandom } from '../../adapters/games/sim-rng';

/**
 * The aggregator simulator's driver (issue 42, docs/seamless-wallet.md "Launch and the simulator"): it plays one round
 * of a game the way Hub88 drives an operator's Wallet API. Every call is a signed POST (RSA-SHA256 over the raw body,
 * base64, X-Hub88-Signature, with the simulator's private key); every answer's signature is checked with the
 * operator's public key. A round is:
 *   1. POST {prefix}/user/balance (optional);
 *   2. POST {prefix}/transaction/bet: an answer it did not get (lost, timed out, a 5xx or 429, a bad signature) is
 *      sent again with the same transaction_uuid and a new request_uuid, up to `betAttempts` times; a bet still without
 *      an answer then (or answered RS_ERROR_UNKNOWN) is rolled back: POST /transaction/rollback referencing it, retried
 *      until answered (a rollback must reach the operator whatever happened to the bet);
 *   3. POST {prefix}/transaction/win with the round's result (0 for a loss), round_closed true, retried until answered.
 * A definite refusal of the bet (not enough money, user disabled, expired token...) ends the round with nothing to undo.
 * Failures are injected on purpose: `failRate` is the share of calls whose answer is "lost" after the operator
 * processed the request (the retry must answer the first answer and apply nothing twice), `delayMs` a latency before
 * each call, `timeoutMs` the longest the simulator waits for an answer (a later one counts as lost).
 */

/** What a call to the operator got back: the HTTP status, the raw body, the answer's signature header. */
export interface WireAnswer {
  status: number;
  body: string;
  signature: string | undefined;
}

/** Sends one signed Wallet API request: the path under the server (prefix included), the raw body, its headers. */
export type WalletSend = (path: string, rawBody: string, headers: Record<string, string>) => Promise<WireAnswer>;

/** A send over real HTTP to a base URL (the server's own listening address, or another server). */
export function httpSend(baseUrl: string): WalletSend {
  const base = baseUrl.replace(/\/+$/, '');
  return async (path, rawBody, headers) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers, body: rawBody, redirect: 'error' });
    return { status: res.status, body: await res.text(), signature: res.headers.get('x-hub88-signature') ?? undefined };
  };
}

export type CallKind = 'balance' | 'bet' | 'win' | 'rollback';

/** One attempt of one call, as the round's log keeps it. */
export interface CallRecord {
  kind: CallKind;
  attempt: number;
  request_uuid: string;
  transaction_uuid: string | null;
  /** ok: answered and signed; lost: answered but dropped on purpose; timeout; http_<n>; bad_signature; error: not sent or not JSON. */
  result: 'ok' | 'lost' | 'timeout' | 'bad_signature' | 'error' | `http_${number}`;
  /** The answer's `status` (RS_...) when it was read. */
  status: string | null;
}

export interface Hub88SimOptions {
  send: WalletSend;
  /** Where the operator serves the Wallet API (SEAMLESS_PREFIX), e.g. /api/seamless/hub88. */
  prefix: string;
  /** The simulator's own key: it signs every request. */
  privateKey: KeyObject;
  /** The operator's public key: every answer must carry its signature. */
  operatorPublicKey: KeyObject;
  /** Share of answers lost after the operator processed the request (HUB88_SIM_FAIL_RATE), 0..1. */
  failRate?: number;
  /** Latency before each call (HUB88_SIM_DELAY_MS). */
  delayMs?: number;
  /** The longest wait for an answer (HUB88_SIM_TIMEOUT_MS). */
  timeoutMs?: number;
  /** Attempts of a bet before it is rolled back [3]. */
  betAttempts?: number;
  /** Attempts of a win or a rollback before the round is left unsettled [10]. */
  settleAttempts?: number;
  /** Wait between attempts [100 ms]. */
  retryDelayMs?: number;
  /** Seed of the results and of the failure draws (HUB88_SIM_SEED); random when absent. */
  seed?: number;
  /** Decides instead of failRate whether an answer is lost (tests). */
  loseAnswer?: (kind: CallKind, attempt: number) => boolean;
}

export interface RoundInput {
  user: string;
  token: string;
  /** The aggregator's game code (games.aggregator_game_code). */
  game: string;
  currency: string;
  /** Satang, > 0. */
  stake: number;
  /** The win in satang instead of the game's draw (tests, the bench). */
  win?: number;
  /** Ask the balance first [true]. */
  checkBalance?: boolean;
}

/**
 * settled: bet and win applied; refused: the bet was refused (status says why), nothing moved; rolled_back: the bet got
 * no answer and its rollback was answered; unsettled: a win or rollback never got an answer (or the win was refused):
 * the round stays open at the operator; failed: the balance was never answered, no bet was sent.
 */
export type RoundOutcome = 'settled' | 'refused' | 'rolled_back' | 'unsettled' | 'failed';

export interface RoundResult {
  outcome: RoundOutcome;
  round: string;
  /** Satang. */
  stake: number;
  /** Satang; 0 unless settled. */
  win: number;
  /** Symbols of the draw (three reels). */
  symbols: string[];
  /** The balance in satang after the round, from the last answer that carried one; null when none did. */
  balance: number | null;
  /** The refusal's status (RS_ERROR_...), when there was one. */
  status: string | null;
  bet_transaction_uuid: string;
  calls: CallRecord[];
}

/** Hub88's integer amounts: 1/100000 of the currency, 1,000 a satang (server/plugins/seamless/units.ts). */
export const SIM_UNITS_PER_SATANG = 1000;

/** The paytable of the demo slot: a draw below `below` pays `times` the stake with these reels. RTP 89 %. */
const PAYTABLE: { below: number; times: number; symbols: string[] }[] = [
  { below: 0.02, times: 10, symbols: ['DRAGON', 'DRAGON', 'DRAGON'] },
  { below: 0.08, times: 5, symbols: ['PEARL', 'PEARL', 'PEARL'] },
  { below: 0.2, times: 2, symbols: ['COIN', 'COIN', 'COIN'] },
  { below: 0.3, times: 1, symbols: ['LANTERN', 'LANTERN', 'LANTERN'] },
  { below: 0.4, times: 0.5, symbols: ['JADE', 'JADE', 'COIN'] },
];
const LOSING: string[][] = [
  ['DRAGON', 'COIN', 'JADE'],
  ['PEARL', 'LANTERN', 'DRAGON'],
  ['COIN', 'JADE', 'PEARL'],
  ['LANTERN', 'DRAGON', 'COIN'],
];

/** What a successful answer carries (Hub88's answer fields we read). */
interface WalletAnswer {
  status?: unknown;
  balance?: unknown;
  request_uuid?: unknown;
}

/** Definite answers to a bet: no rollback follows them. RS_ERROR_UNKNOWN is not one (Hub88 rolls such a bet back). */
const NOT_DEFINITE = new Set(['RS_ERROR_UNKNOWN']);

const sleep = (ms: number) => (ms > 0 ? new Promise<void>((r) => setTimeout(r, ms)) : Promise.resolve());

export class Hub88Driver {
  readonly prefix: string;
  private readonly o: Required<Omit<Hub88SimOptions, 'loseAnswer' | 'seed'>> & Pick<Hub88SimOptions, 'loseAnswer'>;
  private readonly draws: () => number;
  private readonly faults: () => number;

  constructor(opts: Hub88SimOptions) {
    const failRate = opts.failRate ?? 0;
    if (!(failRate >= 0 && failRate <= 1)) throw new Error('the simulator failRate must be 0 .. 1');
    this.prefix = opts.prefix.replace(/\/+$/, '');
    this.o = {
      send: opts.send,
      prefix: this.prefix,
      privateKey: opts.privateKey,
      operatorPublicKey: opts.operatorPublicKey,
      failRate,
      delayMs: Math.max(0, opts.delayMs ?? 0),
      timeoutMs: Math.max(1, opts.timeoutMs ?? 5000),
      betAttempts: Math.max(1, opts.betAttempts ?? 3),
      settleAttempts: Math.max(1, opts.settleAttempts ?? 10),
      retryDelayMs: Math.max(0, opts.retryDelayMs ?? 100),
      loseAnswer: opts.loseAnswer,
    };
    const seed = opts.seed ?? crypto.randomInt(2 ** 31);
    this.draws = seededRandom(seed);
    this.faults = seededRandom(seed ^ 0x5eed);
  }

  /** The player's balance in satang, or null when no signed answer came (or its status was not RS_OK). */
  async balance(user: string, token: string, game: string): Promise<{ balance: number | null; status: string | null; calls: CallRecord[] }> {
    const calls: CallRecord[] = [];
    const got = await this.until('balance', this.o.betAttempts, calls, null, () => ({ user, token, game_code: game }));
    const status = got ? String(got.status) : null;
    return { balance: got && status === 'RS_OK' ? satangOf(got.balance) : null, status, calls };
  }

  async playRound(input: RoundInput): Promise<RoundResult> {
    if (!Number.isSafeInteger(input.stake) || input.stake <= 0) throw new Error('the stake must be a positive whole number of satang');
    const round = `r-${crypto.randomUUID()}`;
    const betUuid = crypto.randomUUID();
    const calls: CallRecord[] = [];
    const drawn = this.draw(input);
    const result: RoundResult = { outcome: 'failed', round, stake: input.stake, win: 0, symbols: drawn.symbols, balance: null, status: null, bet_transaction_uuid: betUuid, calls };
    const common = { user: input.user, token: input.token, supplier_user: input.user, round, game_code: input.game, currency: input.currency, is_free: false, is_aggregated: false };

    if (input.checkBalance !== false) {
      const b = await this.until('balance', this.o.betAttempts, calls, null, () => ({ user: input.user, token: input.token, game_code: input.game }));
      if (!b) return result;
      result.balance = satangOf(b.balance);
      if (b.status !== 'RS_OK') return { ...result, outcome: 'refused', status: String(b.status) };
    }

    const bet = await this.until('bet', this.o.betAttempts, calls, betUuid, () => ({
      ...common,
      transaction_uuid: betUuid,
      supplier_transaction_id: `sim-${betUuid}`,
      round_closed: false,
      amount: input.stake * SIM_UNITS_PER_SATANG,
    }));
    if (bet && !NOT_DEFINITE.has(String(bet.status)) && bet.status !== 'RS_OK') {
      return { ...result, outcome: 'refused', status: String(bet.status), balance: satangOf(bet.balance) ?? result.balance };
    }
    if (!bet || bet.status !== 'RS_OK') {
      const rollbackUuid = crypto.randomUUID();
      const rb = await this.until('rollback', this.o.settleAttempts, calls, rollbackUuid, () => ({
        user: input.user,
        token: input.token,
        transaction_uuid: rollbackUuid,
        supplier_transaction_id: `sim-${rollbackUuid}`,
        reference_transaction_uuid: betUuid,
        round,
        round_closed: true,
        game_code: input.game,
      }));
      const undone = rb?.status === 'RS_OK';
      return {
        ...result,
        outcome: undone ? 'rolled_back' : 'unsettled',
        status: undone ? (bet ? String(bet.status) : null) : rb ? String(rb.status) : null,
        balance: undone ? satangOf(rb.balance) : result.balance,
      };
    }
    result.balance = satangOf(bet.balance);

    const winUuid = crypto.randomUUID();
    const win = await this.until('win', this.o.settleAttempts, calls, winUuid, () => ({
      ...common,
      transaction_uuid: winUuid,
      supplier_transaction_id: `sim-${winUuid}`,
      reference_transaction_uuid: betUuid,
      round_closed: true,
      amount: drawn.win * SIM_UNITS_PER_SATANG,
    }));
    if (!win) return { ...result, outcome: 'unsettled' };
    if (win.status !== 'RS_OK') return { ...result, outcome: 'unsettled', status: String(win.status) };
    return { ...result, outcome: 'settled', win: drawn.win, balance: satangOf(win.balance) };
  }

  /** The round's result: the forced win, or the paytable's draw. */
  private draw(input: RoundInput): { win: number; symbols: string[] } {
    const r = this.draws();
    if (input.win !== undefined) {
      if (!Number.isSafeInteger(input.win) || input.win < 0) throw new Error('a forced win must be a whole number of satang >= 0');
      const line = PAYTABLE.find((p) => Math.floor(input.stake * p.times) === input.win);
      return { win: input.win, symbols: line?.symbols ?? (input.win > 0 ? ['COIN', 'COIN', 'COIN'] : LOSING[Math.floor(r * LOSING.length)]) };
    }
    const line = PAYTABLE.find((p) => r < p.below);
    if (!line) return { win: 0, symbols: LOSING[Math.floor(this.draws() * LOSING.length)] };
    return { win: Math.floor(input.stake * line.times), symbols: line.symbols };
  }

  /**
   * Sends a call until a signed answer is read, at most `attempts` times; null when none came. A bet's
   * RS_ERROR_UNKNOWN is an answer (the bet is then rolled back); for the other calls it is the operator saying it could
   * not process the call (a fault, its rate limit): they are sent again, as Hub88 retries wins and rollbacks.
   */
  private async until(kind: CallKind, attempts: number, calls: CallRecord[], transactionUuid: string | null, body: () => Record<string, unknown>): Promise<WalletAnswer | null> {
    let last: WalletAnswer | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      if (attempt > 1) await sleep(this.o.retryDelayMs);
      const got = await this.once(kind, attempt, transactionUuid, body(), calls);
      if (got && (kind === 'bet' || !NOT_DEFINITE.has(String(got.status)))) return got;
      last = got ?? last;
    }
    // Out of attempts: the last answer read (an RS_ERROR_UNKNOWN), so the caller can tell "refused" from "no answer".
    return last;
  }

  private async once(kind: CallKind, attempt: number, transactionUuid: string | null, fields: Record<string, unknown>, calls: CallRecord[]): Promise<WalletAnswer | null> {
    const requestUuid = crypto.randomUUID();
    const raw = JSON.stringify({ ...fields, request_uuid: requestUuid });
    const record: CallRecord = { kind, attempt, request_uuid: requestUuid, transaction_uuid: transactionUuid, result: 'error', status: null };
    calls.push(record);
    const path = `${this.prefix}${kind === 'balance' ? '/user/balance' : `/transaction/${kind}`}`;
    const headers = { 'content-type': 'application/json', 'x-hub88-signature': signBody(raw, this.o.privateKey) };
    await sleep(this.o.delayMs);
    let answer: WireAnswer | 'timeout';
    let timer: NodeJS.Timeout | undefined;
    try {
      answer = await Promise.race([
        this.o.send(path, raw, headers),
        new Promise<'timeout'>((r) => {
          timer = setTimeout(() => r('timeout'), this.o.timeoutMs);
        }),
      ]);
    } catch {
      return null; // not sent, or the connection failed: no answer
    } finally {
      clearTimeout(timer);
    }
    if (answer === 'timeout') {
      record.result = 'timeout';
      return null;
    }
    // Lost on the way back: the operator processed the request, the simulator never saw its answer.
    const lost = this.o.loseAnswer ? this.o.loseAnswer(kind, attempt) : this.o.failRate > 0 && this.faults() < this.o.failRate;
    if (lost) {
      record.result = 'lost';
      return null;
    }
    if (answer.status !== 200) {
      record.result = `http_${answer.status}`;
      return null;
    }
    if (!verifyBody(answer.body, answer.signature, this.o.operatorPublicKey)) {
      record.result = 'bad_signature';
      return null;
    }
    let parsed: WalletAnswer;
    try {
      parsed = JSON.parse(answer.body) as WalletAnswer;
    } catch {
      return null;
    }
    if (!parsed || typeof parsed !== 'object' || typeof parsed.status !== 'string') return null;
    record.result = 'ok';
    record.status = parsed.status;
    return parsed;
  }
}

function satangOf(units: unknown): number | null {
  return typeof units === 'number' && Number.isSafeInteger(units) && units >= 0 ? Math.floor(units / SIM_UNITS_PER_SATANG) : null;
}

/** One round through a driver made from these options (H5's bench and e2e, tests): see Hub88Driver. */
export function playRound(driver: Hub88Driver | Hub88SimOptions, input: RoundInput): Promise<RoundResult> {
  return (driver instanceof Hub88Driver ? driver : new Hub88Driver(driver)).playRound(input);
}
