import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { hashPassword } from '../../lib/password';
import { countStaff, insertStaff } from './repository';

/** The demo's staff account for the /staff console (docs/staff.md "Demo"); printed by npm start in demo mode. */
export const DEMO_STAFF = { username: 'support', password: 'support-demo-1', name: 'Demo support', role: 'support' } as const;

/**
 * Creates the demo staff account when there is no staff account at all (so a real install, whose operator added
 * their own, never gets one); true when it did. npm start calls it only with DEMO on.
 */
export async function seedDemoStaff(db: Kysely<DB>, now = new Date()): Promise<boolean> {
  if ((await countStaff(db)) > 0) return false;
  const { username, name, role, password } = DEMO_STAFF;
  await insertStaff(db, { username, name, role, password_hash: await hashPassword(password), now: now.toISOString() });
  return true;
}
