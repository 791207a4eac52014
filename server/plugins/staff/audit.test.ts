import { sql } from 'kysely';
import { freshDb, testEngine, type TestDb } from '../../test/support/helper';
import { insertStaff } from './repository';
import { recordStaffAction } from './audit';

/** The staff audit log (docs/staff.md "Audit log"): rows as written, in the caller's transaction, never changed. */
let db: TestDb;
let staffId: number;
const now = new Date('2026-11-26T10:00:00.000Z');
beforeAll(async () => {
  db = await freshDb();
  staffId = await insertStaff(db.db, { username: 'auditor', name: 'Auditor', role: 'admin', password_hash: 'x', now: now.toISOString() });
});
afterAll(() => db.dispose());

const rowsOf = (subjectId: string) => db.db.selectFrom('staff_audit').selectAll().where('subject_id', '=', subjectId).orderBy('id').execute();

test('recordStaffAction appends one row with the request id of the request it runs for', async () => {
  await recordStaffAction(
    db.db,
    { staffId, action: 'player.status', subjectType: 'player', subjectId: '41', reason: 'asked by phone', detail: { from: 'active', to: 'inactive' }, requestId: 'req-audit-1' },
    now,
  );
  await recordStaffAction(db.db, { staffId, action: 'logout', subjectType: 'staff', subjectId: '41' }, now);
  const rows = await rowsOf('41');
  expect(rows.map(({ id: _id, ...r }) => r)).toEqual([
    { staff_id: staffId, action: 'player.status', subject_type: 'player', subject_id: '41', reason: 'asked by phone', detail: '{"from":"active","to":"inactive"}', request_id: 'req-audit-1', created_at: now.toISOString() },
    { staff_id: staffId, action: 'logout', subject_type: 'staff', subject_id: '41', reason: null, detail: null, request_id: null, created_at: now.toISOString() },
  ]);
});

test('written inside a transaction that fails, the row is gone with it', async () => {
  await expect(
    db.db.transaction().execute(async (trx) => {
      await recordStaffAction(trx, { staffId, action: 'review.approve', subjectType: 'review', subjectId: 'rev_rolled_back' }, now);
      throw new Error('the action failed');
    }),
  ).rejects.toThrow('the action failed');
  expect(await rowsOf('rev_rolled_back')).toEqual([]);
});

// Matched by message, not with toThrow: better-sqlite3's native error class belongs to the realm of the first test
// file that loaded it in this jest process, so in a later file it is not an `Error` to toThrow ("did not throw").
const appendOnly = { message: expect.stringMatching(/append-only/) };

test('an UPDATE or DELETE of an audit row is refused by the database and changes nothing', async () => {
  await recordStaffAction(db.db, { staffId, action: 'payout.fail', subjectType: 'payout', subjectId: 'wd_kept', reason: 'bank said no' }, now);
  const before = await rowsOf('wd_kept');
  expect(before).toHaveLength(1);
  await expect(db.db.updateTable('staff_audit').set({ reason: 'rewritten' }).where('subject_id', '=', 'wd_kept').execute()).rejects.toMatchObject(appendOnly);
  await expect(db.db.deleteFrom('staff_audit').where('subject_id', '=', 'wd_kept').execute()).rejects.toMatchObject(appendOnly);
  await expect(db.db.deleteFrom('staff_audit').execute()).rejects.toMatchObject(appendOnly);
  await expect(sql`UPDATE staff_audit SET staff_id = staff_id`.execute(db.db)).rejects.toMatchObject(appendOnly);
  expect(await rowsOf('wd_kept')).toEqual(before);
  expect(Number((await db.db.selectFrom('staff_audit').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(3);
});

// Issue 39, lower items: REPLACE deletes the old row without firing SQLite's DELETE trigger; on PostgreSQL the
// app's role owns the table, so the migration takes UPDATE, DELETE and TRUNCATE from the owner too.
test('INSERT OR REPLACE of an existing id is refused (SQLite); UPDATE, DELETE and TRUNCATE are not granted (PostgreSQL)', async () => {
  await recordStaffAction(db.db, { staffId, action: 'review.reject', subjectType: 'review', subjectId: 'rev_kept', reason: 'as written' }, now);
  const [row] = await rowsOf('rev_kept');
  if (testEngine() === 'sqlite') {
    for (const verb of ['INSERT OR REPLACE', 'REPLACE']) {
      await expect(
        sql`${sql.raw(verb)} INTO staff_audit (id, staff_id, action, subject_type, subject_id, reason, created_at)
          VALUES (${row.id}, ${staffId}, 'review.reject', 'review', 'rev_kept', 'rewritten', ${now.toISOString()})`.execute(db.db),
      ).rejects.toMatchObject(appendOnly);
    }
    await expect(sql`INSERT OR IGNORE INTO staff_audit (id, staff_id, action, subject_type, subject_id, created_at) VALUES (${row.id}, ${staffId}, 'x', 'x', 'x', 'x')`.execute(db.db)).rejects.toMatchObject(appendOnly);
  } else {
    const { rows } = await sql<{ privilege_type: string }>`
      SELECT a.privilege_type FROM pg_class c, aclexplode(c.relacl) a
      WHERE c.oid = 'staff_audit'::regclass AND a.grantee IN (0, (SELECT oid FROM pg_roles WHERE rolname = current_user))`.execute(db.db);
    const granted = rows.map((r) => r.privilege_type);
    expect(granted).toEqual(expect.arrayContaining(['SELECT', 'INSERT']));
    for (const p of ['UPDATE', 'DELETE', 'TRUNCATE']) expect(granted).not.toContain(p);
  }
  expect(await rowsOf('rev_kept')).toEqual([row]);
  // New rows are still appended.
  await recordStaffAction(db.db, { staffId, action: 'review.reject', subjectType: 'review', subjectId: 'rev_kept', reason: 'second' }, now);
  expect(await rowsOf('rev_kept')).toHaveLength(2);
});
