/**
 * `npm run operator -- setup`: the first administrator of a live install (issue 44, docs/server.md "Operator CLI",
 * docs/staff.md "Operator commands"). It works only while no ACTIVE admin account exists: other staff rows (support,
 * payments, disabled admins, the demo accounts a demo start left disabled) do not block it; once an admin is
 * active, more are added with `staff add ... --role admin`.
 *
 * Username, display name and password come from a terminal (the password twice, without echo) or, for automation,
 * from SETUP_USERNAME, SETUP_NAME and STAFF_PASSWORD. The second factor is enrolled at once (sealed with the
 * server's GAME_SECRET_KEY, as `staff add`), printed as `staff totp` prints it plus a QR code for the terminal, and
 * on a terminal confirmed with one current code before anything is written. The account and its `staff.setup` audit
 * row are written in one transaction that checks again that no active admin exists (PostgreSQL: under a lock on
 * staff_users; SQLite: the write transaction is BEGIN IMMEDIATE), so two setups at once make one admin.
 * Exit codes: 0 done, 1 refused (an admin exists, the username is taken, the code was wrong), 2 bad input or no key.
 */
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import type { DB } from '../db/schema';
import { sql } from '../db';
import { isPostgres } from '../db/portable';
import { hashPassword } from '../lib/password';
import { verifyTotp } from '../lib/totp';
import { normalizeUsername } from '../plugins/staff/service';
import { newTotpEnrolment } from '../plugins/staff/totp';
import * as repo from '../plugins/staff/repository';
import { recordStaffAction } from '../plugins/staff/audit';
import { USERNAME, noKey, printEnrolment, readPassword } from '../plugins/staff/operator';

export const SETUP_USAGE = `  setup                        create the first administrator (only while no active admin exists): username,
                               name and password from a terminal prompt or SETUP_USERNAME, SETUP_NAME and
                               STAFF_PASSWORD; enrols its second factor and prints the otpauth URI and a QR code
`;

/** Wrong codes a terminal may type before the setup gives up (nothing written). */
const CODE_TRIES = 3;

export interface SetupContext {
  db: Kysely<DB>;
  out: (line: string) => void;
  err: (line: string) => void;
  now?: () => Date;
  /** Where secrets and answers given by environment are read: STAFF_PASSWORD, SETUP_USERNAME, SETUP_NAME (process.env in the CLI). */
  env?: Record<string, string | undefined>;
  /** Asks for a secret without echo (terminal only). */
  prompt?: (question: string) => Promise<string>;
  /** Asks a question whose answer is shown as typed (terminal only). */
  ask?: (question: string) => Promise<string>;
  /** The server's GAME_SECRET_KEY: setup, staff add and staff totp seal the second factor's secret with it. */
  secretKey?: Buffer;
}

type ActiveAdmin = { username: string; totp_secret: string | null };

const activeAdmins = (db: Kysely<DB>): Promise<ActiveAdmin[]> =>
  db.selectFrom('staff_users').select(['username', 'totp_secret']).where('role', '=', 'admin').where('status', '=', 'active').orderBy('id').execute();

function refuseExisting(ctx: SetupContext, admins: ActiveAdmin[]): number {
  const names = admins.map((a) => a.username).join(', ');
  ctx.err(`an active administrator exists already (${names}); setup only makes the first one: add more with staff add <username> --name "<name>" --role admin; nothing was written`);
  if (admins.some((a) => a.totp_secret === null)) ctx.err('an admin without a second factor cannot sign in: enrol one with staff totp <username>');
  return 1;
}

/** A value from the environment, else asked on the terminal, else null (and a line saying what to set). */
async function field(ctx: SetupContext, envName: string, question: string): Promise<string | null> {
  const fromEnv = ctx.env?.[envName];
  if (fromEnv !== undefined && fromEnv !== '') return fromEnv;
  if (ctx.ask) return ctx.ask(question);
  ctx.err(`no ${envName === 'SETUP_USERNAME' ? 'username' : 'name'}: set ${envName}, or run the command on a terminal to type it; nothing was written`);
  return null;
}

/** Shows the URI as a QR code an authenticator app scans off the terminal. */
export const terminalQr = (uri: string): Promise<string> => QRCode.toString(uri, { type: 'terminal', small: true });

/** On a terminal: one current code from the app before anything is written; the step it belongs to, or null. */
async function confirmCode(ctx: SetupContext, secret: string, now: () => Date): Promise<number | null> {
  if (!ctx.ask) return null;
  for (let i = 1; i <= CODE_TRIES; i += 1) {
    const code = (await ctx.ask('Code the app shows now (6 digits): ')).replace(/\s+/g, '');
    const step = verifyTotp(secret, code, now());
    if (step !== null) return step;
    ctx.err(i < CODE_TRIES ? 'that code does not match: check the app and the clocks, and type the current one' : `no matching code after ${CODE_TRIES} tries`);
  }
  return -1;
}

export async function runSetup(ctx: SetupContext): Promise<number> {
  const now = ctx.now ?? (() => new Date());
  // Before anything is asked: nobody types a password for nothing.
  const existing = await activeAdmins(ctx.db);
  if (existing.length) return refuseExisting(ctx, existing);
  if (noKey(ctx) || !ctx.secretKey) return 2;

  const typedName = await field(ctx, 'SETUP_USERNAME', 'Username of the first administrator: ');
  if (typedName === null) return 2;
  const username = normalizeUsername(typedName);
  if (!USERNAME.test(username)) {
    ctx.err('a username is 3 to 32 letters, digits, dots, dashes or underscores, starting with a letter or digit; nothing was written');
    return 2;
  }
  const taken = `staff user ${username} already exists; nothing was written`;
  if (await repo.findStaffByUsername(ctx.db, username)) {
    ctx.err(taken);
    return 1;
  }
  const typedDisplay = await field(ctx, 'SETUP_NAME', 'Display name (shown next to staff replies): ');
  if (typedDisplay === null) return 2;
  const name = typedDisplay.trim().replace(/\s+/g, ' ');
  if (!name || name.length > 128) {
    ctx.err('the display name needs 1 to 128 characters; nothing was written');
    return 2;
  }
  const password = await readPassword(ctx, username);
  if (!password.ok) return 2;
  const passwordHash = await hashPassword(password.password);

  const totp = newTotpEnrolment(ctx.secretKey, username);
  printEnrolment(ctx, totp);
  ctx.out((await terminalQr(totp.uri)).replace(/\n+$/, ''));
  const step = await confirmCode(ctx, totp.secret, now);
  if (step === -1) {
    ctx.err('the second factor was not confirmed; nothing was written (run setup again for a new secret)');
    return 1;
  }
  if (step === null) ctx.out('not on a terminal: the code was not confirmed here; the first sign-in at /staff asks for one');

  const at = now();
  type Outcome = { kind: 'admins'; admins: ActiveAdmin[] } | { kind: 'taken' } | { kind: 'made'; id: number };
  const result = await ctx.db.transaction().execute(async (trx): Promise<Outcome> => {
    // Two setups at once: the second waits here and then sees the first one's admin.
    if (isPostgres(trx)) await sql`lock table staff_users in share row exclusive mode`.execute(trx);
    const admins = await activeAdmins(trx);
    if (admins.length) return { kind: 'admins', admins };
    if (await repo.findStaffByUsername(trx, username)) return { kind: 'taken' };
    let id: number;
    try {
      id = await repo.insertStaff(trx, { username, name, role: 'admin', password_hash: passwordHash, now: at.toISOString(), totp_secret: totp.sealed });
    } catch (e) {
      if (repo.isDuplicateUsername(e)) return { kind: 'taken' };
      throw e;
    }
    // The code typed here is used: it (and any earlier one) does not sign in again.
    if (step !== null) await repo.acceptTotpStep(trx, id, step);
    await recordStaffAction(trx, { staffId: id, action: 'staff.setup', subjectType: 'staff', subjectId: String(id), reason: 'first administrator (operator setup)', detail: { username, confirmed: step !== null } }, at);
    return { kind: 'made', id };
  });
  if (result.kind === 'admins') return refuseExisting(ctx, result.admins);
  if (result.kind === 'taken') {
    ctx.err(taken);
    return 1;
  }
  ctx.out(`administrator ${username} created (id ${result.id}, with a second factor${step !== null ? ', confirmed' : ''}): sign in at /staff`);
  return 0;
}
