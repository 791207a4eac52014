import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { formatSatang } from '../../ledger';
import { readJsonObject, type OperatorIo } from '../../lib/operator-files';
import { checkInviteSettings, readInviteSettings, writeInviteSettings } from './settings';

/**
 * `npm run operator -- invite ...` (docs/invite-wheel.md "Invite settings"). Exit codes as the operator CLI:
 * 0 done, 2 bad usage or a file that does not pass the checks (then nothing is written).
 */
export const INVITE_USAGE = `  invite                       show the invite settings and what the invite budget paid
  invite set <file.json>       change invite settings {isActive, percent, cap, turnover, dailyCap, banners}
                               (fields in the file replace the stored ones)
  invite on|off                switch the invite bonus on or off
`;

export interface InviteOperatorContext extends OperatorIo {
  db: Kysely<DB>;
  now?: () => Date;
}

/** Runs `invite ...`; null when the arguments are not a command (usage). */
export async function runInviteCommand(rest: string[], ctx: InviteOperatorContext): Promise<number | null> {
  const now = (ctx.now ?? (() => new Date()))();
  const [sub, arg] = rest;
  if (sub === undefined) {
    ctx.out(JSON.stringify(await readInviteSettings(ctx.db), null, 2));
    const budget = await ctx.db.selectFrom('ledger_accounts').select(['currency', 'balance']).where('code', 'like', 'invite_budget:%').execute();
    const waiting = await ctx.db
      .selectFrom('invite_earnings')
      .select((eb) => ['currency', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount').as('s')])
      .where('receipt_id', 'is', null)
      .where('amount', '>', 0)
      .groupBy('currency')
      .execute();
    const paid = budget.map((b) => `${formatSatang(-Number(b.balance))} ${b.currency}`).join(', ') || '0.00';
    const open = waiting.map((w) => `${Number(w.n)} (${formatSatang(Number(w.s))} ${w.currency})`).join(', ') || 'none';
    ctx.out(`invite budget paid ${paid}; earnings waiting to be received: ${open}`);
    return 0;
  }
  if ((sub === 'on' || sub === 'off') && arg === undefined) {
    await writeInviteSettings(ctx.db, { isActive: sub === 'on' }, now);
    ctx.out(`invite: ${sub}`);
    return 0;
  }
  if (sub === 'set' && arg) {
    const v = readJsonObject(ctx, arg, checkInviteSettings);
    if (!v) return 2;
    ctx.out(JSON.stringify(await writeInviteSettings(ctx.db, v, now), null, 2));
    return 0;
  }
  return null;
}
