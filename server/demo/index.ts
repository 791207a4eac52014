import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { nowIso } from '../db/index';
import { hashPassword } from '../lib/password';
import { creditWallet, findEntry, insertPlayer } from '../ledger';
import { seedDemoBonuses } from './bonus';
import { seedDemoInvite } from './invite';
import { seedDemoWheel } from './wheel';
import { recordStaffAction } from '../plugins/staff/audit';

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
  const password_hash = await hashPassword(p.password);
  const id = await db.transaction().execute(async (trx) => {
    const playerId = await insertPlayer(trx, {
      phone: p.phone,
      name: p.name,
      password_hash,
      bank_code: p.bankCode,
      bank_account_name: p.bankAccountName,
      bank_account_no: p.bankAccountNo,
      currency: 'THB',
      source_code: p.sourceCode,
      inviter_id: null,
      now,
    });
    // Marked, not known by its phone: it signs in only while DEMO is on (disableDemoAccounts below).
    await trx.updateTable('players').set({ demo: 1 }).where('id', '=', playerId).execute();
    return playerId;
  });
  return { id, phone: p.phone, password: p.password };
}

export interface DisabledDemoAccounts {
  /** Usernames of the demo staff accounts this start disabled. */
  staff: string[];
  /** Sessions of the demo player this start ended. */
  playerSessions: number;
}

/**
 * A start with DEMO off (issue 39 row 5): the demo accounts' logins are public, so every demo staff account still
 * active is disabled and its sessions end, each with a `demo.disabled` row in the staff audit log (the account is
 * its own subject and, as no staff member acted, its own actor: staff_audit.staff_id is required); the demo player's
 * sessions end. One transaction. Their sign-in is refused anyway while DEMO is off (the staff and player logins read
 * the `demo` mark), so this also covers sessions opened while it was on. `staff enable` brings an account back.
 */
export async function disableDemoAccounts(db: Kysely<DB>, now = new Date()): Promise<DisabledDemoAccounts> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const staff = await trx.selectFrom('staff_users').select(['id', 'username']).where('demo', '=', 1).where('status', '=', 'active').execute();
    for (const s of staff) {
      await trx.updateTable('staff_users').set({ status: 'disabled' }).where('id', '=', s.id).execute();
      await trx.updateTable('staff_sessions').set({ revoked_at: at }).where('staff_id', '=', s.id).where('revoked_at', 'is', null).execute();
      await recordStaffAction(trx, { staffId: Number(s.id), action: 'demo.disabled', subjectType: 'staff', subjectId: String(s.id), reason: 'DEMO is off', detail: { username: s.username } }, now);
    }
    const demoPlayers = (await trx.selectFrom('players').select('id').where('demo', '=', 1).execute()).map((p) => Number(p.id));
    let playerSessions = 0;
    if (demoPlayers.length) {
      const ended = await trx.updateTable('sessions').set({ revoked_at: at }).where('revoked_at', 'is', null).where('player_id', 'in', demoPlayers).executeTakeFirst();
      playerSessions = Number(ended.numUpdatedRows);
    }
    return { staff: staff.map((s) => s.username), playerSessions };
  });
}
