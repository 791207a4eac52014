import type { Kysely } from 'kysely';
import type { DB } from './schema';
import { nowIso } from './index';
import { hashPassword } from '../lib/password';
import { creditWallet, findEntry } from '../ledger';
import { insertPlayer } from '../plugins/accounts/repository';
import { seedDemoBonuses } from '../plugins/bonus/demo';
import { seedDemoInvite } from '../plugins/invite/demo';
import { seedDemoWheel } from '../plugins/wheel/demo';

/** The demo player `npm start` prints (DEMO on). */
export const DEMO_PLAYER = {
  phone: '0812345678',
  password: 'demo1234',
  name: 'Demo Player',
  bankCode: 'KBANK',
  // English so the copy-details flow works for every bank (KTB/TMB/BBL need English names).
  bankAccountName: 'DEMO PLAYER',
  bankAccountNo: '1112223334',
  sourceCode: 'friend',
} as const;

export interface DemoPlayer { id: number; phone: string; password: string }

/**
 * One step of the demo seed, run in order after the demo player exists. Each step must be idempotent
 * (seedDemo may run again on the same database) and takes the player it seeds for.
 */
export type DemoSeedStep = (db: Kysely<DB>, player: DemoPlayer) => Promise<void>;

/**
 * The steps that give the demo player something to play with. The ledger work adds the opening balance
 * here (a journal entry from the promotion/bonus budget to the player's wallet); keep each step idempotent.
 */
export const demoSeedSteps: DemoSeedStep[] = [demoOpeningBalance, demoBonuses, demoInviteWheel];

/** A bonus of each type, the promotion codes WELCOME50 and LUCKY, and refunds switched on (docs/bonus.md). */
async function demoBonuses(db: Kysely<DB>): Promise<void> {
  await seedDemoBonuses(db);
}

/** The invite bonus on at 5% and an active prize wheel of 8 slices (docs/invite-wheel.md). */
async function demoInviteWheel(db: Kysely<DB>): Promise<void> {
  await seedDemoInvite(db);
  await seedDemoWheel(db);
}

/** The demo player's starting wallet balance, satang (1,000 baht). */
export const DEMO_OPENING_BALANCE = 1_000_00;

/** A journal entry from the demo float to the demo player's wallet, once (its reference is unique). */
async function demoOpeningBalance(db: Kysely<DB>, player: DemoPlayer): Promise<void> {
  const reference = `demo:opening:${player.id}`;
  if (await findEntry(db, reference)) return;
  await db.transaction().execute((trx) =>
    creditWallet(trx, { playerId: player.id, amount: DEMO_OPENING_BALANCE, from: 'demo_float', kind: 'demo_opening', reference }),
  );
}

/**
 * Demo data on top of seedBase: the demo player (created once, by phone) and then every demoSeedSteps entry.
 * Needs seedBase first (the player's bank must exist). Returns the player's login.
 */
export async function seedDemo(db: Kysely<DB>): Promise<DemoPlayer> {
  const player = await ensureDemoPlayer(db);
  for (const step of demoSeedSteps) await step(db, player);
  return player;
}

async function ensureDemoPlayer(db: Kysely<DB>): Promise<DemoPlayer> {
  const p = DEMO_PLAYER;
  const existing = await db.selectFrom('players').select('id').where('phone', '=', p.phone).executeTakeFirst();
  if (existing) return { id: Number(existing.id), phone: p.phone, password: p.password };
  const now = nowIso();
  const id = await insertPlayer(db, {
    phone: p.phone,
    name: p.name,
    password_hash: await hashPassword(p.password),
    bank_code: p.bankCode,
    bank_account_name: p.bankAccountName,
    bank_account_no: p.bankAccountNo,
    currency: 'THB',
    source_code: p.sourceCode,
    inviter_id: null,
    now,
  });
  return { id, phone: p.phone, password: p.password };
}
