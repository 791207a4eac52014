import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { nowIso } from '../../db';
import { notFound } from '../../errors';
import { toBaht } from '../../ledger';
import type { Banner, Localized } from './definitions';
import { isOpen, normalizeCode } from './definitions';
import { findActiveBonus, findDefinition, listDefinitions, listUserBonuses, turnoverOf, type UserBonus } from './repository';
import { readBonusRules } from './settings';

/** The player-facing answers of the bonus and promotion routes (the wire contract, docs/bonus.md "Routes"). */

const parse = <T>(json: string): T => JSON.parse(json) as T;

/** A received bonus's terms and how far it has got, in wire units: shared by the activation answer and the progress. */
function termsView(ub: UserBonus, turnover: number) {
  return {
    code: ub.code,
    kind: ub.kind,
    amount: toBaht(ub.amount),
    startAmount: toBaht(ub.start_amount),
    turnover: toBaht(turnover),
    target: toBaht(ub.target),
    percentFail: ub.percent_fail_bp / 100,
    failAt: toBaht(ub.fail_at),
    createdAt: ub.created_at,
  };
}

/** The UserBonus record (activation answers). */
export function userBonusView(ub: UserBonus, turnover: number, received: string[]) {
  return {
    _id: String(ub.id),
    isActive: ub.status === 'ACTIVE',
    ...termsView(ub, turnover),
    received: received.map((updatedAt) => ({ updatedAt })),
  };
}

/** Every time the player received this code. */
async function receivedDates(db: Kysely<DB>, playerId: number, code: string): Promise<string[]> {
  return (await listUserBonuses(db, playerId)).filter((u) => u.code === code).map((u) => u.created_at);
}

export async function activationAnswer(db: Kysely<DB>, ub: UserBonus) {
  return userBonusView(ub, 0, await receivedDates(db, ub.player_id, ub.code));
}

/** GET /api/bonus: the open bonuses, each with what this player received of it. */
export async function listBonuses(db: Kysely<DB>, playerId: number, now: Date) {
  const at = nowIso(now);
  const defs = (await listDefinitions(db, 'bonus')).filter((d) => isOpen(d, at));
  const mine = await listUserBonuses(db, playerId);
  return {
    bonuses: defs.map((d) => {
      const received = mine.filter((u) => u.code === d.code);
      const latest = received[received.length - 1];
      return {
        code: d.code,
        name: parse<Localized>(d.name),
        type: d.type,
        maxReceived: Number(d.max_received),
        percent: Number(d.percent_bp) / 100,
        cap: toBaht(Number(d.cap)),
        turnoverMultiple: Number(d.turnover_x100) / 100,
        percentFail: Number(d.percent_fail_bp) / 100,
        banners: parse<Banner[]>(d.banners),
        notice: parse<Localized>(d.notice),
        userBonus: latest
          ? { _id: String(latest.id), isActive: latest.status === 'ACTIVE', received: received.map((u) => ({ updatedAt: u.created_at })) }
          : null,
      };
    }),
  };
}

/** GET /api/bonus/check/active: whether a bonus is active, its type (promotion for a promotion) and its progress. */
export async function activeStatus(db: Kysely<DB>, playerId: number) {
  const ub = await findActiveBonus(db, playerId);
  if (!ub) return { status: false, type: null, progress: null };
  const def = await findDefinition(db, ub.code);
  const turnover = await turnoverOf(db, ub.id);
  return {
    status: true,
    type: ub.kind === 'promotion' ? 'promotion' : (def?.type ?? null),
    progress: {
      ...termsView(ub, turnover),
      name: def ? parse<Localized>(def.name) : { th: ub.code, la: ub.code, en: ub.code },
    },
  };
}

/** GET /api/bonus/check/minimum. */
export async function minimum(db: Kysely<DB>) {
  return { minimum: (await readBonusRules(db)).minimum };
}

/** GET /api/promotion/find/{code}: an open promotion (case-insensitive), else NO_PROMOTION. */
export async function findPromotion(db: Kysely<DB>, rawCode: string, now: Date) {
  const code = normalizeCode(rawCode);
  const def = code ? await findDefinition(db, code) : undefined;
  if (!def || def.kind !== 'promotion' || !isOpen(def, nowIso(now))) throw notFound('NO_PROMOTION');
  return { code: def.code, percentFail: Number(def.percent_fail_bp) / 100, description: parse<Localized>(def.notice) };
}

/** GET /api/promotion/current: the active bonus when it is a promotion. */
export async function currentPromotion(db: Kysely<DB>, playerId: number) {
  const ub = await findActiveBonus(db, playerId);
  if (!ub || ub.kind !== 'promotion') return { promotion: null };
  const def = await findDefinition(db, ub.code);
  return {
    promotion: {
      code: ub.code,
      description: def ? parse<Localized>(def.notice) : { th: ub.code, la: ub.code, en: ub.code },
      percentFail: ub.percent_fail_bp / 100,
    },
  };
}
