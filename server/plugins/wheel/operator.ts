import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { nowIso } from '../../db';
import { formatSatang } from '../../ledger';
import { readJson, type OperatorIo } from '../../lib/operator-files';
import { parseWheel, readWheel, writeWheel, type Wheel } from './config';
import { readSettingDoc, writeSettingDoc } from '../../settings';
import { DEPOSIT_RULES_KEY, mergeDepositRules } from '../deposits';

/**
 * `npm run operator -- wheel ...` (docs/invite-wheel.md "Defining the wheel"): the operator defines the prize
 * wheel from a JSON file, without editing code. Exit codes as the operator CLI: 0 done, 1 nothing defined,
 * 2 bad usage or a file that does not pass the checks (then nothing is written; every problem is printed).
 */
export const WHEEL_USAGE = `  wheel                        show the wheel: on or off, each slice's weight and chance, prizes,
                               coupons won and claimed, what the spin budget paid
  wheel show                   print the wheel as JSON, in the file format wheel set reads
  wheel set <file.json>        replace the wheel (name, couponValidDays, slices) from a JSON file
  wheel on|off                 show the wheel to players and let them spin, or not (coupons won stay claimable)
  wheel coin-turnover [x]      show or set how many times a deposit must be wagered before its coins are
                               granted (0-100, 0: with the deposit; the deposit rules' coinTurnover)
`;

export interface WheelOperatorContext extends OperatorIo {
  db: Kysely<DB>;
  now?: () => Date;
}

const prizeText = (s: Wheel['slices'][number]) =>
  s.prize.type === 'cash' ? `cash ${s.prize.amount} baht` : s.prize.type === 'coin' ? `${s.prize.amount} coin${s.prize.amount === 1 ? '' : 's'}` : 'no prize';

async function show(ctx: WheelOperatorContext, now: Date): Promise<number> {
  const w = await readWheel(ctx.db);
  if (!w) {
    ctx.out('no wheel defined (or the stored one does not pass the checks): players see none; define one with wheel set <file.json>');
    return 1;
  }
  const active = w.slices.filter((s) => s.active);
  const total = active.reduce((s, x) => s + x.weight, 0);
  ctx.out(`wheel [${w.isActive ? 'on' : 'off'}] ${w.name.en}, coupons valid ${w.couponValidDays} days, ${active.length} active slices of ${w.slices.length}`);
  for (const s of w.slices) {
    const chance = s.active && total > 0 ? `${((100 * s.weight) / total).toFixed(2)}%` : '-';
    ctx.out(`  ${s.code} [${s.active ? 'on' : 'off'}] "${s.label}" weight ${s.weight} (${chance}): ${prizeText(s)}`);
  }
  const at = nowIso(now);
  const coupons = await ctx.db
    .selectFrom('wheel_coupons')
    .select((eb) => [
      eb.fn.countAll<number>().as('won'),
      eb.fn.sum<number>(eb.case().when('status', '=', 'CLAIMED').then(1).else(0).end()).as('claimed'),
      eb.fn.sum<number>(eb.case().when(eb.and([eb('status', '=', 'CLAIMABLE'), eb('expires_at', '<=', at)])).then(1).else(0).end()).as('expired'),
    ])
    .executeTakeFirstOrThrow();
  const spins = await ctx.db.selectFrom('wheel_spins').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const budget = await ctx.db.selectFrom('ledger_accounts').select(['currency', 'balance']).where('code', 'like', 'spin_budget:%').execute();
  const paid = budget.map((b) => `${formatSatang(-Number(b.balance))} ${b.currency}`).join(', ') || '0.00';
  ctx.out(`spins ${Number(spins.n)}; coupons won ${Number(coupons.won)}, claimed ${Number(coupons.claimed ?? 0)}, expired ${Number(coupons.expired ?? 0)}; spin budget paid ${paid}`);
  return 0;
}

/** Runs `wheel ...`; null when the arguments are not a command (usage). */
export async function runWheelCommand(rest: string[], ctx: WheelOperatorContext): Promise<number | null> {
  const now = (ctx.now ?? (() => new Date()))();
  const [sub, arg] = rest;
  if (sub === undefined) return show(ctx, now);
  if (sub === 'show' && arg === undefined) {
    const w = await readWheel(ctx.db);
    if (!w) {
      ctx.err('no wheel defined');
      return 1;
    }
    ctx.out(JSON.stringify(w, null, 2));
    return 0;
  }
  if (sub === 'set' && arg) {
    const json = readJson(ctx, arg);
    if (!json.ok) return 2;
    const parsed = parseWheel(json.value);
    if (!parsed.ok) {
      for (const e of parsed.errors) ctx.err(e);
      ctx.err('nothing was written');
      return 2;
    }
    await writeWheel(ctx.db, parsed.wheel, now);
    ctx.out(`wheel: set, ${parsed.wheel.isActive ? 'on' : 'off'}, ${parsed.wheel.slices.filter((s) => s.active).length} active slices`);
    return 0;
  }
  if (sub === 'coin-turnover') {
    const stored = (await readSettingDoc(ctx.db, DEPOSIT_RULES_KEY)) ?? {};
    if (arg === undefined) {
      ctx.out(`coin-turnover: ${mergeDepositRules(stored).coinTurnover}`);
      return 0;
    }
    const x = Number(arg);
    if (!/^\d{1,3}(\.\d{1,2})?$/.test(arg) || x > 100) {
      ctx.err('coin-turnover must be a multiple 0-100 with at most 2 decimals');
      return 2;
    }
    await writeSettingDoc(ctx.db, DEPOSIT_RULES_KEY, { ...stored, coinTurnover: x }, now);
    ctx.out(`coin-turnover: ${x}`);
    return 0;
  }
  if ((sub === 'on' || sub === 'off') && arg === undefined) {
    const w = await readWheel(ctx.db);
    if (!w) {
      ctx.err('no wheel defined: wheel set <file.json> first');
      return 1;
    }
    const parsed = parseWheel({ ...w, isActive: sub === 'on' });
    if (!parsed.ok) {
      for (const e of parsed.errors) ctx.err(e);
      return 2;
    }
    await writeWheel(ctx.db, parsed.wheel, now);
    ctx.out(`wheel: ${sub}`);
    return 0;
  }
  return null;
}
