import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { hashPassword } from '../lib/password';
import { countStaff, insertStaff } from '../plugins/staff/repository';
import { sealTotpSecret } from '../plugins/staff/totp';

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
 * Creates the demo staff accounts, marked `demo` (docs/staff.md "Demo"), only when there is no staff account at all,
 * so a real install, whose operator added their own, never gets one: `support`, and `payments` (with its TOTP secret
 * sealed with `secretKey`, the server's GAME_SECRET_KEY) when the key is given. True when it created them. npm start
 * calls it only with DEMO on; a start with DEMO off disables them (server/demo/index.ts disableDemoAccounts).
 */
export async function seedDemoStaff(db: Kysely<DB>, now = new Date(), secretKey?: Buffer): Promise<boolean> {
  if ((await countStaff(db)) > 0) return false;
  const at = now.toISOString();
  const support = { ...DEMO_STAFF, password_hash: await hashPassword(DEMO_STAFF.password) };
  const payments = secretKey ? { ...DEMO_PAYMENTS_STAFF, password_hash: await hashPassword(DEMO_PAYMENTS_STAFF.password) } : null;
  await db.transaction().execute(async (trx) => {
    const ids = [await insertStaff(trx, { username: support.username, name: support.name, role: support.role, password_hash: support.password_hash, now: at })];
    if (payments && secretKey) {
      const { username, name, role, password_hash, totpSecret } = payments;
      ids.push(await insertStaff(trx, { username, name, role, password_hash, now: at, totp_secret: sealTotpSecret(secretKey, totpSecret) }));
    }
    await trx.updateTable('staff_users').set({ demo: 1 }).where('id', 'in', ids).execute();
  });
  return true;
}
