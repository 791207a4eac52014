import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { hashPassword } from '../../lib/password';
import { countStaff, findStaffByUsername, insertStaff } from './repository';
import { sealTotpSecret } from './totp';

/** The demo's staff account for the /staff console (docs/staff.md "Demo"); printed by npm start in demo mode. */
export const DEMO_STAFF = { username: 'support', password: 'support-demo-1', name: 'Demo support', role: 'support' } as const;

/**
 * The demo's payments account, with a second factor whose secret is fixed and public (printed at start; e2e tests
 * compute its codes with server/lib/totp.ts): a demo only, never a real install's.
 */
export const DEMO_PAYMENTS_STAFF = {
  username: 'payments',
  password: 'payments-demo-1',
  name: 'Demo payments',
  role: 'payments',
  totpSecret: 'KRSXG5CTMVRXEZLUKRSXG5CTMVRXEZLU',
} as const;

/**
 * Creates the demo staff accounts: `support` when there is no staff account at all (so a real install, whose
 * operator added their own, never gets one), and `payments` (with its TOTP secret sealed with `secretKey`, the
 * server's GAME_SECRET_KEY) when there is no `payments` account. True when it created any. npm start calls it
 * only with DEMO on.
 */
export async function seedDemoStaff(db: Kysely<DB>, now = new Date(), secretKey?: Buffer): Promise<boolean> {
  let created = false;
  if ((await countStaff(db)) === 0) {
    const { username, name, role, password } = DEMO_STAFF;
    await insertStaff(db, { username, name, role, password_hash: await hashPassword(password), now: now.toISOString() });
    created = true;
  }
  if (secretKey && !(await findStaffByUsername(db, DEMO_PAYMENTS_STAFF.username))) {
    const { username, name, role, password, totpSecret } = DEMO_PAYMENTS_STAFF;
    await insertStaff(db, { username, name, role, password_hash: await hashPassword(password), now: now.toISOString(), totp_secret: sealTotpSecret(secretKey, totpSecret) });
    created = true;
  }
  return created;
}
