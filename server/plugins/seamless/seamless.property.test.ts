import crypto from 'node:crypto';
import fc from 'fast-check';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { seedBase } from '../../db/seed';
import { freshDb, testConfig, type TestDb } from '../../test/support/helper';
import { PayoutSimulator } from '../../adapters/payouts';
import { AGGREGATOR_GAME, ensureSeamlessGame, seamlessPlayer, signedCall, type SeamlessPlayer } from '../../test/support/seamless';
import { runAudit } from '../../ledger';
import { RS } from './statuses';
import { UNITS_PER_SATANG } from './units';

/**
 * The seamless wallet's money under random interleavings (issue 42 "Proof"), through app.inject against a real
 * database on both engines: a few players with small balances play a few rounds each, and the aggregator's calls
 * come in any order the generator picks: bets, wins, rollbacks (also before their bet, also a second rollback of the
 * same bet, also a rollback of a win), retries of any earlier call (same transaction, a new request_uuid), the same
 * call twice at once, and duplicates (an earlier transaction_uuid with another amount). Some runs send it one call
 * at a time, others in concurrent chains (each round's bet and win in order, its rollbacks racing them).
 *
 * Checked, whatever the rules answer for each call:
 * - every answer is HTTP 200, signed with our key, and echoes its request_uuid;
 * - a retry answers exactly the first answer of its transaction_uuid (status and balance), two at once the same
 *   (a win refused RS_ERROR_TRANSACTION_DOES_NOT_EXIST, the one answer not stored, repeats its status: `repeated`);
 * - a duplicate (same transaction_uuid, another amount) moves no money: it answers the first answer or
 *   RS_ERROR_DUPLICATE_TRANSACTION;
 * - a bet that arrives after its rollback was answered RS_OK is refused; a rollback of a win the wallet kept is refused;
 * - one at a time, every first answer's balance is the wallet as that call left it;
 * - after the run, each wallet = its start - bets answered RS_OK + wins answered RS_OK + bets answered RS_OK whose
 *   rollback was answered RS_OK; no wallet below 0; wallets + seamless house accounts hold what they held before;
 *   every currency's accounts sum to 0; the ledger audit (runAudit) is clean.
 */
let t: { app: FastifyInstance; db: TestDb };

beforeAll(async () => {
  const db = await freshDb();
  await seedBase(db.db);
  // The per-address rate limit off (RATE_LIMIT_PER_MINUTE=0): a run sends ~1,000 calls a minute from one address,
  // and the limit (and SEAMLESS_AGGREGATOR_ADDRESSES, which lets a real aggregator through it: rate-limit.test.ts) is
  // not this property's subject.
  const app = await buildApp(testConfig(db.dataDir, { RATE_LIMIT_PER_MINUTE: '0' }), {
    database: db,
    logger: false,
    wallet: { payoutAdapter: new PayoutSimulator({ delayMs: null }), wallet: { reconcileIntervalMs: 0, reconcileAtStart: false } },
  });
  await app.ready();
  t = { app, db };
  await ensureSeamlessGame(db.db);
});
afterAll(async () => {
  await t.app.close();
  await t.db.dispose();
});

type Seamless = SeamlessPlayer & { start: number };

interface Answer {
  status: string;
  balance: number | undefined;
}

/** One signed call of the aggregator (a request_uuid of its own); the answer must be 200, signed by us and echo it. */
async function call(path: string, body: Record<string, unknown>): Promise<Answer> {
  const request_uuid = crypto.randomUUID();
  const res = await signedCall(t.app, path, { ...body, request_uuid });
  if (res.statusCode !== 200) throw new Error(`${path} ${JSON.stringify(body)}: HTTP ${res.statusCode} ${res.raw}`);
  if (!res.signatureOk) throw new Error(`${path}: the answer is not signed with our key: ${res.raw}`);
  if (res.body.request_uuid !== request_uuid) throw new Error(`${path}: request_uuid ${String(res.body.request_uuid)}, sent ${request_uuid}: ${res.raw}`);
  return { status: String(res.body.status), balance: typeof res.body.balance === 'number' ? res.body.balance : undefined };
}

type Kind = 'bet' | 'win' | 'rollback' | 'rollback2' | 'rollbackWin';
type Cmd =
  | { k: Kind; player: number; round: number }
  | { k: 'retry'; pick: number }
  | { k: 'twice'; player: number; round: number; which: 'bet' | 'win' }
  | { k: 'duplicate'; pick: number };

const PLAYERS = 3;
const ROUNDS = 3;

/** Present with probability `p` (a position in the interleaving), else null. */
const sometimes = (p: number, max = 1_000) => fc.oneof({ weight: Math.round((1 - p) * 20), arbitrary: fc.constant(null) }, { weight: Math.round(p * 20), arbitrary: fc.nat({ max }) });

/**
 * One round of one player, as positions in the interleaving: its bet (sometimes sent twice at once), its win after it
 * (usually), its rollback anywhere (before the bet too: out of order), sometimes a second rollback of the same bet,
 * and a rollback of the win; and the amounts in satang (a bet may exceed a small balance).
 */
const roundScript = fc.record({
  bet: fc.nat({ max: 1_000 }),
  betTwice: fc.boolean(),
  win: sometimes(0.75, 300),
  winTwice: fc.boolean(),
  rollback: sometimes(0.35),
  rollback2: sometimes(0.1),
  rollbackWin: sometimes(0.1),
  betSatang: fc.integer({ min: 1, max: 3_000 }),
  winSatang: fc.integer({ min: 0, max: 4_000 }),
});
/** Retries (the same call again) and duplicates (its transaction_uuid with another amount) of earlier calls. */
const extra = fc.record({ at: fc.nat({ max: 1_300 }), k: fc.constantFrom('retry' as const, 'retry' as const, 'duplicate' as const), pick: fc.nat() });

const scenario = fc
  .record({
    starts: fc.array(fc.integer({ min: 0, max: 8_000 }), { minLength: PLAYERS, maxLength: PLAYERS }),
    rounds: fc.array(fc.array(roundScript, { minLength: ROUNDS, maxLength: ROUNDS }), { minLength: PLAYERS, maxLength: PLAYERS }),
    extras: fc.array(extra, { maxLength: 10 }),
  })
  .map(({ starts, rounds, extras }) => {
    const at: { at: number; c: Cmd }[] = [];
    rounds.forEach((mine, player) =>
      mine.forEach((r, round) => {
        const w = { player, round };
        at.push({ at: r.bet, c: r.betTwice ? { k: 'twice', which: 'bet', ...w } : { k: 'bet', ...w } });
        if (r.win !== null) at.push({ at: r.bet + 1 + r.win, c: r.winTwice ? { k: 'twice', which: 'win', ...w } : { k: 'win', ...w } });
        if (r.rollback !== null) at.push({ at: r.rollback, c: { k: 'rollback', ...w } });
        if (r.rollback2 !== null) at.push({ at: r.rollback2, c: { k: 'rollback2', ...w } });
        if (r.rollbackWin !== null && r.win !== null) at.push({ at: r.bet + 2 + r.win + r.rollbackWin, c: { k: 'rollbackWin', ...w } });
      }),
    );
    for (const e of extras) at.push({ at: e.at, c: { k: e.k, pick: e.pick } });
    return {
      starts,
      amt: rounds.map((mine) => mine.map((r) => ({ bet: r.betSatang, win: r.winSatang }))),
      cmds: at.sort((a, b) => a.at - b.at).map((x) => x.c),
    };
  });

/** A transaction as sent the first time: what a retry resends and what its answers must equal. */
interface Sent {
  uuid: string;
  path: string;
  body: Record<string, unknown>;
  kind: 'bet' | 'win' | 'rollback';
  player: number;
  round: number;
  /** The first answer (the first one back when two went at once). */
  first: Promise<Answer>;
}

let runNo = 0;

/**
 * The part of an answer a retry must repeat: status and balance. A win refused RS_ERROR_TRANSACTION_DOES_NOT_EXIST is
 * the one answer not stored (service.ts: a retry once its bet is found is answered afresh, as Hub88 retries a win
 * until it is taken), so a retry of it repeats the status with the wallet as it is then.
 */
const repeated = (s: Pick<Sent, 'kind'>, a: Answer, first: Answer) =>
  s.kind === 'win' && first.status === RS.TRANSACTION_DOES_NOT_EXIST ? { status: a.status } : { status: a.status, balance: a.balance };

/** Sums the wallets and the seamless house accounts, and every currency's accounts. */
async function money(): Promise<{ walletsAndHouse: number; perCurrency: Map<string, number> }> {
  const rows = await t.db.db.selectFrom('ledger_accounts').select(['code', 'kind', 'currency', 'balance']).execute();
  let walletsAndHouse = 0;
  const perCurrency = new Map<string, number>();
  for (const r of rows) {
    perCurrency.set(r.currency, (perCurrency.get(r.currency) ?? 0) + Number(r.balance));
    if (r.kind === 'wallet' || r.code.startsWith('seamless_house:')) walletsAndHouse += Number(r.balance);
  }
  return { walletsAndHouse, perCurrency };
}

async function walletOf(playerId: number): Promise<number> {
  const r = await t.db.db.selectFrom('ledger_accounts').select('balance').where('code', '=', `wallet:${playerId}`).executeTakeFirst();
  return Number(r?.balance ?? 0);
}

async function runScenario(starts: number[], amt: { bet: number; win: number }[][], cmds: Cmd[], concurrent: boolean): Promise<void> {
  const run = ++runNo;
  const players: Seamless[] = [];
  for (const b of starts) players.push({ ...(await seamlessPlayer(t.app, { balance: b })), start: b });
  const before = await money();
  const ids = (p: number, r: number) => ({ round: `r${run}-${p}-${r}`, bet: `b${run}-${p}-${r}`, win: `w${run}-${p}-${r}`, rb: `x${run}-${p}-${r}`, rb2: `y${run}-${p}-${r}`, rbw: `z${run}-${p}-${r}` });
  const sent = new Map<string, Sent>();
  const order: Sent[] = [];
  /** The model's wallets (one at a time only): moved by RS_OK answers as the rules say. */
  const model = players.map((p) => p.start);
  const refunded = new Set<string>();
  /** Bets whose rollback was answered RS_OK before the bet was ever sent. */
  const tombstoned = new Set<string>();

  /** A bet's or a win's body, Hub88's fields (the win closes the round). */
  const moneyBody = (p: Seamless, kind: 'bet' | 'win', uuid: string, round: string, satang: number) => ({
    user: p.user, token: p.token, transaction_uuid: uuid, supplier_transaction_id: `s-${uuid}`, round, round_closed: kind === 'win', is_free: false,
    game_code: AGGREGATOR_GAME, currency: 'THB', bet: 'spin', amount: satang * UNITS_PER_SATANG, meta: {},
  });
  const bodyOf = (k: Kind, pi: number, r: number): { path: string; body: Record<string, unknown>; uuid: string; kind: Sent['kind'] } => {
    const p = players[pi];
    const id = ids(pi, r);
    const a = amt[pi][r];
    switch (k) {
      case 'bet':
        return { path: '/transaction/bet', kind: 'bet', uuid: id.bet, body: moneyBody(p, 'bet', id.bet, id.round, a.bet) };
      case 'win':
        return { path: '/transaction/win', kind: 'win', uuid: id.win, body: { ...moneyBody(p, 'win', id.win, id.round, a.win), reference_transaction_uuid: id.bet } };
      case 'rollback':
      case 'rollback2':
      case 'rollbackWin': {
        const uuid = k === 'rollback' ? id.rb : k === 'rollback2' ? id.rb2 : id.rbw;
        return {
          path: '/transaction/rollback', kind: 'rollback', uuid,
          body: { user: p.user, token: p.token, transaction_uuid: uuid, supplier_transaction_id: `s-${uuid}`, round: id.round, round_closed: true, game_code: AGGREGATOR_GAME, reference_transaction_uuid: k === 'rollbackWin' ? id.win : id.bet, meta: {} },
        };
      }
    }
  };

  /** What a bet's or a win's first answer does to the wallet (a rollback's refund is counted once per bet, apart). */
  const effect = (s: Sent, a: Answer): number => {
    if (a.status !== RS.OK || s.kind === 'rollback') return 0;
    return s.kind === 'bet' ? -amt[s.player][s.round].bet : amt[s.player][s.round].win;
  };

  /** Sends a transaction for the first time (one at a time, or as one link of a chain). */
  const first = async (k: Kind, pi: number, r: number, times = 1): Promise<void> => {
    const b = bodyOf(k, pi, r);
    if (sent.has(b.uuid)) return retry(sent.get(b.uuid)!);
    const id = ids(pi, r);
    // Hub88 sends a round's win after its bet was answered; a win is only generated once its bet went out.
    if (k === 'win' && !sent.has(id.bet)) return;
    // A rollback of a win the wallet never saw cannot be told from a rollback of a bet that never arrived (which is
    // recorded, so the late bet is refused): the rollback of a win goes out once the win was answered.
    let winStored = false;
    if (k === 'rollbackWin') {
      if (!sent.has(id.win)) return;
      winStored = (await sent.get(id.win)!.first).status !== RS.TRANSACTION_DOES_NOT_EXIST;
    }
    const answers = Array.from({ length: times }, () => call(b.path, b.body));
    const s: Sent = { ...b, player: pi, round: r, first: Promise.race(answers) };
    sent.set(b.uuid, s);
    order.push(s);
    const all = await Promise.all(answers);
    for (const a of all.slice(1)) expect(repeated(b, a, all[0])).toEqual(repeated(b, all[0], all[0]));
    const a = all[0];
    // A win the wallet took (or refused and kept) is known as a win: its rollback is refused.
    if (k === 'rollbackWin' && winStored) expect({ uuid: b.uuid, status: a.status }).not.toEqual({ uuid: b.uuid, status: RS.OK });
    if (k === 'bet' && tombstoned.has(id.bet)) expect(a.status).not.toBe(RS.OK);
    if (k === 'rollback' || k === 'rollback2') {
      if (a.status === RS.OK && !sent.has(id.bet)) tombstoned.add(id.bet);
    }
    if (!concurrent) {
      model[pi] += effect(s, a);
      if ((k === 'rollback' || k === 'rollback2') && a.status === RS.OK && !refunded.has(id.bet)) {
        const bet = sent.get(id.bet);
        if (bet && (await bet.first).status === RS.OK) {
          model[pi] += amt[pi][r].bet;
          refunded.add(id.bet);
        }
      }
      // Every first answer of a known player carries the wallet as the call left it.
      expect({ uuid: b.uuid, status: a.status, balance: a.balance }).toEqual({ uuid: b.uuid, status: a.status, balance: model[pi] * UNITS_PER_SATANG });
    }
  };

  /** Resends an earlier transaction as it was: the answer must be the first answer. */
  const retry = async (s: Sent): Promise<void> => {
    const a = await call(s.path, s.body);
    const f = await s.first;
    expect({ uuid: s.uuid, ...repeated(s, a, f) }).toEqual({ uuid: s.uuid, ...repeated(s, f, f) });
  };

  /** An earlier transaction_uuid with another amount: no money moves. */
  const duplicate = async (s: Sent): Promise<void> => {
    // A bet or a win for 7 satang more; a rollback naming another transaction.
    const body = s.kind === 'rollback' ? { ...s.body, reference_transaction_uuid: `other-${s.uuid}` } : { ...s.body, amount: (s.body.amount as number) + 7 * UNITS_PER_SATANG };
    const a = await call(s.path, body);
    const f = await s.first;
    if (a.status !== RS.DUPLICATE_TRANSACTION) expect({ uuid: s.uuid, ...repeated(s, a, f) }).toEqual({ uuid: s.uuid, ...repeated(s, f, f) });
  };

  const step = async (c: Cmd): Promise<void> => {
    switch (c.k) {
      case 'retry':
        if (order.length) await retry(order[c.pick % order.length]);
        return;
      case 'duplicate':
        if (order.length) await duplicate(order[c.pick % order.length]);
        return;
      case 'twice':
        return first(c.which, c.player, c.round, 2);
      default:
        return first(c.k, c.player, c.round);
    }
  };

  if (!concurrent) {
    for (const c of cmds) await step(c);
  } else {
    // Chains run side by side: per round, its bets and wins (and retries and duplicates of what the chain sent) in
    // order, and its rollbacks in a chain of their own, racing them, as a timed-out bet's rollback does.
    const chains = new Map<string, Cmd[]>();
    let last = 'none';
    for (const c of cmds) {
      const key = 'player' in c ? `${c.player}-${c.round}-${c.k === 'bet' || c.k === 'win' || c.k === 'twice' ? 'play' : 'rollback'}` : last;
      last = key;
      chains.set(key, [...(chains.get(key) ?? []), c]);
    }
    await Promise.all(
      [...chains.values()].map(async (chain) => {
        for (const c of chain) await step(c);
      }),
    );
  }

  // Settle the expected wallets from the first answers (concurrent runs) and compare with the ledger.
  const expected = players.map((p) => p.start);
  const refundedAll = new Set<string>();
  for (const s of order) {
    const a = await s.first;
    expected[s.player] += effect(s, a);
    if (s.kind === 'rollback' && a.status === RS.OK) {
      const bet = sent.get(ids(s.player, s.round).bet);
      const targetsBet = s.body.reference_transaction_uuid === ids(s.player, s.round).bet;
      if (targetsBet && bet && (await bet.first).status === RS.OK && !refundedAll.has(bet.uuid)) {
        expected[s.player] += amt[s.player][s.round].bet;
        refundedAll.add(bet.uuid);
      }
    }
  }
  for (let i = 0; i < players.length; i++) {
    const w = await walletOf(players[i].id);
    expect({ player: i, wallet: w }).toEqual({ player: i, wallet: expected[i] });
    expect(w).toBeGreaterThanOrEqual(0);
    if (!concurrent) expect(expected[i]).toBe(model[i]);
  }
  const after = await money();
  expect(after.walletsAndHouse).toBe(before.walletsAndHouse);
  for (const [cur, total] of after.perCurrency) expect({ cur, total }).toEqual({ cur, total: 0 });
  const audit = await runAudit(t.db.db);
  expect(audit.violations).toEqual([]);
}

test('one call at a time: any interleaving of bets, wins, rollbacks, retries and duplicates conserves money and answers retries alike', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, ({ starts, amt, cmds }) => runScenario(starts, amt, cmds, false)),
    { numRuns: 40 },
  );
}, 120_000);

test('concurrent chains: rounds side by side, rollbacks racing their bets, calls sent twice at once', async () => {
  await fc.assert(
    fc.asyncProperty(scenario, ({ starts, amt, cmds }) => runScenario(starts, amt, cmds, true)),
    { numRuns: 25 },
  );
  // Every currency's accounts still sum to 0 after all the runs (the player lock held on both engines).
  const rows = await sql<{ currency: string; total: string | number }>`SELECT currency, SUM(balance) AS total FROM ledger_accounts GROUP BY currency`.execute(t.db.db);
  for (const r of rows.rows) expect(Number(r.total)).toBe(0);
}, 120_000);
