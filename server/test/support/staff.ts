import type { FastifyInstance } from 'fastify';
import type { StaffRole } from '../../db/schema-staff';
import { hashPassword } from '../../lib/password';
import { insertStaff } from '../../plugins/staff/repository';

/** A password every test staff member has (at least 10 characters, as the operator command asks). */
export const TEST_STAFF_PASSWORD = 'staff-test-pass-1';

let hashed: Promise<string> | null = null;

/**
 * Adds an active staff member straight into the database (the scrypt hash made once per test file) and returns
 * their id and a fresh staff token; for tests of staff routes and the /staff socket namespace.
 */
export async function createStaff(
  app: FastifyInstance,
  s: { username?: string; name?: string; role?: StaffRole } = {},
): Promise<{ id: number; username: string; token: string }> {
  hashed ??= hashPassword(TEST_STAFF_PASSWORD);
  const username = s.username ?? `staff${Math.random().toString(36).slice(2, 10)}`;
  const id = await insertStaff(app.db, {
    username,
    name: s.name ?? 'Test Staff',
    role: s.role ?? 'support',
    password_hash: await hashed,
    now: app.clock.now().toISOString(),
  });
  return { id, username, token: await app.staffTokens.issue(id) };
}
