import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { BonusKind } from '../../db/schema-bonus';
import { formatSatang } from '../../ledger';
import { readJson, type OperatorIo } from '../../lib/operator-files';
import { definitionToInput, normalizeCode, parseDefinition } from './definitions';
import { findDefinition, listDefinitions, setDefinitionActive, upsertDefinition } from './repository';
import { checkBonusRules, checkRefundSettings, readBonusRules, readRefundSettings, writeBonusRules, writeRefundSettings } from './settings';

/**
 * `npm run operator -- bonus|promotion|refund ...` (docs/bonus.md "Operator commands"): operators define bonuses,
 * promotion codes and refund settings from JSON files, without editing code. Exit codes as the operator CLI:
 * 0 done, 1 not found, 2 bad usage or a file that does not pass the checks (then nothing is written).
 */
export const BONUS_USAGE = `  bonus                        list bonuses (terms, budget paid / total, on or off)
  bonus show <code>            print a bonus as JSON, in the file format add reads
  bonus add <file.json>        add or update bonuses from a JSON file (one object or an array)
  bonus disable|enable <code>  stop or resume offering a bonus (received ones run on)
  bonus settings [file.json]   show or set {minimum, timeZone}: the smallest wallet an activation accepts
                               (baht) and the zone of the day/week receive limits (Asia/Bangkok)
  promotion                    list promotion codes
  promotion show <code>        print a promotion code as JSON
  promotion add <file.json>    add or update promotion codes from a JSON file
  promotion disable|enable <code>
  refund                       show the refund settings
  refund set <file.json>       change refund settings (fields in the file replace the stored ones)
  refund on|off                switch refunds on or off
`;

export interface BonusOperatorContext extends OperatorIo {
  db: Kysely<DB>;
  now?: () => Date;
}

/** What a budget paid out, net of clears, per currency (from the ledger), satang. */
async function budgetSpent(db: Kysely<DB>, code: string): Promise<Map<string, number>> {
  const rows = await db.selectFrom('ledger_accounts').select(['currency', 'balance']).where('code', 'like', `bonus_budget:${code}:%`).execute();
  return new Map(rows.filter((r) => r.currency).map((r) => [r.currency, -Number(r.balance)]));
}

async function list(ctx: BonusOperatorContext, kind: BonusKind): Promise<number> {
  const defs = await listDefinitions(ctx.db, kind);
  if (!defs.length) {
    ctx.out(`no ${kind === 'bonus' ? 'bonuses' : 'promotion codes'} defined`);
    return 0;
  }
  for (const d of defs) {
    const i = definitionToInput(d);
    const spent = await budgetSpent(ctx.db, d.code);
    const paid = [...spent.entries()].map(([cur, s]) => `${formatSatang(s)} ${cur}`).join(', ') || '0.00';
    const limit = kind === 'bonus' ? `${i.type} x${i.maxReceived}, ` : '';
    const dates = i.validFrom || i.validTo ? `, valid ${i.validFrom ?? '...'} to ${i.validTo ?? '...'}` : '';
    ctx.out(
      `${d.code} [${i.active ? 'on' : 'off'}] ${limit}${i.percent}% up to ${i.cap}, turnover x${i.turnoverMultiple}, fails at ${i.percentFail}%, ` +
        `paid ${paid}${i.budget === null ? '' : ` of budget ${i.budget}`}${dates}`,
    );
  }
  return 0;
}

async function add(ctx: BonusOperatorContext, kind: BonusKind, file: string, now: Date): Promise<number> {
  const json = readJson(ctx, file);
  if (!json.ok) return 2;
  const items = Array.isArray(json.value) ? json.value : [json.value];
  const rows: Extract<ReturnType<typeof parseDefinition>, { ok: true }>['row'][] = [];
  let bad = false;
  for (const [n, item] of items.entries()) {
    const parsed = parseDefinition(item, kind);
    const label = (item as { code?: unknown })?.code ?? `#${n + 1}`;
    if (!parsed.ok) {
      bad = true;
      for (const e of parsed.errors) ctx.err(`${String(label)}: ${e}`);
      continue;
    }
    const existing = await findDefinition(ctx.db, parsed.row.code);
    if (existing && existing.kind !== kind) {
      bad = true;
      ctx.err(`${parsed.row.code}: that code is a ${existing.kind} already; codes are unique across bonuses and promotions`);
      continue;
    }
    rows.push(parsed.row);
  }
  if (new Set(rows.map((r) => r.code)).size !== rows.length) {
    bad = true;
    ctx.err('the file defines a code twice');
  }
  if (bad) {
    ctx.err('nothing was written');
    return 2;
  }
  await ctx.db.transaction().execute(async (trx) => {
    for (const row of rows) ctx.out(`${row.code}: ${await upsertDefinition(trx, row, now)}`);
  });
  return 0;
}

async function switchOne(ctx: BonusOperatorContext, kind: BonusKind, raw: string, on: boolean, now: Date): Promise<number> {
  const code = normalizeCode(raw);
  const d = code ? await findDefinition(ctx.db, code) : undefined;
  if (!d || d.kind !== kind) {
    ctx.err(`no ${kind} ${raw}`);
    return 1;
  }
  await setDefinitionActive(ctx.db, d.code, on, now);
  ctx.out(`${d.code}: ${on ? 'on' : 'off'}`);
  return 0;
}

async function show(ctx: BonusOperatorContext, kind: BonusKind, raw: string): Promise<number> {
  const code = normalizeCode(raw);
  const d = code ? await findDefinition(ctx.db, code) : undefined;
  if (!d || d.kind !== kind) {
    ctx.err(`no ${kind} ${raw}`);
    return 1;
  }
  ctx.out(JSON.stringify(definitionToInput(d), null, 2));
  return 0;
}

async function definitions(ctx: BonusOperatorContext, kind: BonusKind, rest: string[], now: Date): Promise<number | null> {
  const [sub, arg] = rest;
  if (sub === undefined) return list(ctx, kind);
  if (sub === 'add' && arg) return add(ctx, kind, arg, now);
  if (sub === 'show' && arg) return show(ctx, kind, arg);
  if ((sub === 'disable' || sub === 'enable') && arg) return switchOne(ctx, kind, arg, sub === 'enable', now);
  if (kind === 'bonus' && sub === 'settings') {
    if (!arg) {
      ctx.out(JSON.stringify(await readBonusRules(ctx.db), null, 2));
      return 0;
    }
    const json = readJson(ctx, arg);
    if (!json.ok) return 2;
    const v = json.value;
    const errors = v && typeof v === 'object' && !Array.isArray(v) ? checkBonusRules(v as Record<string, unknown>) : ['the file must hold a JSON object'];
    if (errors.length) {
      for (const e of errors) ctx.err(e);
      return 2;
    }
    ctx.out(JSON.stringify(await writeBonusRules(ctx.db, v as object, now), null, 2));
    return 0;
  }
  return null;
}

async function refund(ctx: BonusOperatorContext, rest: string[], now: Date): Promise<number | null> {
  const [sub, arg] = rest;
  if (sub === undefined) {
    ctx.out(JSON.stringify(await readRefundSettings(ctx.db), null, 2));
    return 0;
  }
  if (sub === 'on' || sub === 'off') {
    await writeRefundSettings(ctx.db, { isActive: sub === 'on' }, now);
    ctx.out(`refund: ${sub}`);
    return 0;
  }
  if (sub === 'set' && arg) {
    const json = readJson(ctx, arg);
    if (!json.ok) return 2;
    const v = json.value;
    const errors = v && typeof v === 'object' && !Array.isArray(v) ? checkRefundSettings(v as Record<string, unknown>) : ['the file must hold a JSON object'];
    if (errors.length) {
      for (const e of errors) ctx.err(e);
      ctx.err('nothing was written');
      return 2;
    }
    ctx.out(JSON.stringify(await writeRefundSettings(ctx.db, v as object, now), null, 2));
    return 0;
  }
  return null;
}

/** Runs `bonus ...`, `promotion ...` or `refund ...`; null when the arguments are not a command (usage). */
export async function runBonusCommand(command: 'bonus' | 'promotion' | 'refund', rest: string[], ctx: BonusOperatorContext): Promise<number | null> {
  const now = (ctx.now ?? (() => new Date()))();
  if (command === 'refund') return refund(ctx, rest, now);
  return definitions(ctx, command, rest, now);
}
