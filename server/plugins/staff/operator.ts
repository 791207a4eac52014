import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { STAFF_ROLES, type StaffRole } from '../../db/schema-staff';
import { hashPassword } from '../../lib/password';
import type { OperatorIo } from '../../lib/operator-files';
import { clearGuesses } from '../accounts';
import * as repo from './repository';
import { normalizeUsername } from './service';
import { newTotpEnrolment } from './totp';

/**
 * `npm run operator -- staff ...` (docs/staff.md "Operator commands"): staff accounts of the /staff console.
 * Exit codes as the operator CLI: 0 done, 1 no such staff member or the username is taken, 2 bad usage.
 */
export const STAFF_PASSWORD_MIN_LENGTH = 10;

export const STAFF_USAGE = `  staff list                   list the staff accounts of the /staff console
  staff add <username> --name "<name>" --role support|payments|admin
                               add a staff account; the password comes from STAFF_PASSWORD or, on a
                               terminal, a prompt (at least ${STAFF_PASSWORD_MIN_LENGTH} characters); its second
                               factor is enrolled at once and printed (as staff totp)
  staff totp <username>        enrol (or reset) the account's second factor: prints the secret and the
                               otpauth:// URI for an authenticator app, and ends the account's sessions;
                               lifts a lock of too many failed codes
  staff disable <username>     refuse the account's logins and end its sessions at once
  staff enable <username>      let a disabled account log in again
`;

/** The login route takes passwords up to this length. */
const STAFF_PASSWORD_MAX_LENGTH = 128;
/** Lower-case letters, digits, dot, dash, underscore; 3 to 32 characters starting with a letter or digit. */
export const USERNAME = /^[a-z0-9][a-z0-9._-]{2,31}$/;

export interface StaffOperatorContext extends OperatorIo {
  db: Kysely<DB>;
  now?: () => Date;
  /** Where STAFF_PASSWORD is read (process.env in the CLI). */
  env?: Record<string, string | undefined>;
  /** Asks for a secret without echoing it; only given when the CLI runs on a terminal. */
  prompt?: (question: string) => Promise<string>;
  /** The key TOTP secrets are sealed with (config.gameSecretKey: the server's, so it can read them back). */
  secretKey?: Buffer;
}

/** Prints a new second factor to its holder: once, here; the database keeps it sealed. */
export function printEnrolment(ctx: StaffOperatorContext, e: { secret: string; uri: string }): void {
  ctx.out(`TOTP secret (base32): ${e.secret}`);
  ctx.out(`otpauth URI: ${e.uri}`);
  ctx.out('add it to an authenticator app (type the secret, or make a QR code of the URI); it is not shown again');
}

export function noKey(ctx: StaffOperatorContext): boolean {
  if (ctx.secretKey) return false;
  ctx.err('no key to seal the TOTP secret with: set GAME_SECRET_KEY, or start the server once (it keeps its key in DATA_DIR); nothing was written');
  return true;
}

/** `--name value` and `--name=value` options, and the positional words. */
function parseOptions(words: string[]): { positional: string[]; options: Record<string, string>; bad: string | null } {
  const positional: string[] = [];
  const options: Record<string, string> = {};
  for (let i = 0; i < words.length; i += 1) {
    const w = words[i];
    if (!w.startsWith('--')) {
      positional.push(w);
      continue;
    }
    const eq = w.indexOf('=');
    const key = eq < 0 ? w.slice(2) : w.slice(2, eq);
    const value = eq < 0 ? words[++i] : w.slice(eq + 1);
    if (value === undefined) return { positional, options, bad: `--${key} needs a value` };
    options[key] = value;
  }
  return { positional, options, bad: null };
}

export async function readPassword(ctx: StaffOperatorContext, username: string): Promise<{ ok: true; password: string } | { ok: false }> {
  const fromEnv = ctx.env?.STAFF_PASSWORD;
  let password: string;
  if (fromEnv !== undefined && fromEnv !== '') {
    password = fromEnv;
  } else if (ctx.prompt) {
    password = await ctx.prompt(`Password for ${username}: `);
    if ((await ctx.prompt('The same password again: ')) !== password) {
      ctx.err('the two passwords differ; nothing was written');
      return { ok: false };
    }
  } else {
    ctx.err('no password: set STAFF_PASSWORD, or run the command on a terminal to type it');
    return { ok: false };
  }
  if (password.length < STAFF_PASSWORD_MIN_LENGTH || password.length > STAFF_PASSWORD_MAX_LENGTH) {
    ctx.err(`the password needs ${STAFF_PASSWORD_MIN_LENGTH} to ${STAFF_PASSWORD_MAX_LENGTH} characters; nothing was written`);
    return { ok: false };
  }
  return { ok: true, password };
}

async function add(allWords: string[], ctx: StaffOperatorContext, now: Date): Promise<number | null> {
  const words = allWords.filter((w) => w !== '--totp');
  const { positional, options, bad } = parseOptions(words);
  const unknown = Object.keys(options).filter((k) => k !== 'name' && k !== 'role');
  if (bad || unknown.length || positional.length !== 1 || options.name === undefined || options.role === undefined) {
    if (bad) ctx.err(bad);
    if (unknown.length) ctx.err(`unknown option ${unknown.map((k) => `--${k}`).join(', ')}`);
    return null;
  }
  const username = normalizeUsername(positional[0]);
  const name = options.name.trim().replace(/\s+/g, ' ');
  const role = options.role as StaffRole;
  if (!USERNAME.test(username)) {
    ctx.err('a username is 3 to 32 letters, digits, dots, dashes or underscores, starting with a letter or digit');
    return 2;
  }
  if (!name || name.length > 128) {
    ctx.err('--name needs 1 to 128 characters');
    return 2;
  }
  if (!(STAFF_ROLES as readonly string[]).includes(role)) {
    ctx.err(`--role is one of ${STAFF_ROLES.join(', ')}`);
    return 2;
  }
  const taken = `staff user ${username} already exists; nothing was written`;
  // Before the password is asked for: nobody types a password for nothing.
  if (await repo.findStaffByUsername(ctx.db, username)) {
    ctx.err(taken);
    return 1;
  }
  // Every new account gets its second factor (issue 14: password plus TOTP); --totp is kept for scripts that pass it.
  if (noKey(ctx)) return 2;
  const secret = await readPassword(ctx, username);
  if (!secret.ok) return 2;
  const totp = ctx.secretKey ? newTotpEnrolment(ctx.secretKey, username) : null;
  let id: number;
  try {
    id = await repo.insertStaff(ctx.db, { username, name, role, password_hash: await hashPassword(secret.password), now: now.toISOString(), totp_secret: totp?.sealed ?? null });
  } catch (e) {
    if (!repo.isDuplicateUsername(e)) throw e;
    ctx.err(taken); // added by someone else meanwhile
    return 1;
  }
  ctx.out(`staff ${username} added (id ${id}, ${role}${totp ? ', with a second factor' : ''}): log in at /staff`);
  if (totp) printEnrolment(ctx, totp);
  return 0;
}

/** `staff totp <username>`: a new secret replaces any old one, and sessions signed in without it end. */
async function enrolTotp(username: string, ctx: StaffOperatorContext, now: Date): Promise<number> {
  const name = normalizeUsername(username);
  if (noKey(ctx) || !ctx.secretKey) return 2;
  const totp = newTotpEnrolment(ctx.secretKey, name);
  const ended = await ctx.db.transaction().execute(async (trx) => {
    const id = await repo.setTotpSecret(trx, name, totp.sealed, now.toISOString());
    if (id === null) return null;
    // A fresh start for the new secret: the guesses at the old one lock nothing any more.
    await clearGuesses(trx, 'staff-totp', String(id));
    return repo.revokeAllSessions(trx, id, now.toISOString());
  });
  if (ended === null) {
    ctx.err(`no staff user ${name}`);
    return 1;
  }
  ctx.out(`staff ${name}: second factor enrolled, ${ended} session${ended === 1 ? '' : 's'} ended`);
  printEnrolment(ctx, totp);
  return 0;
}

async function list(ctx: StaffOperatorContext): Promise<number> {
  const rows = await repo.listStaff(ctx.db);
  if (rows.length === 0) {
    ctx.out('no staff accounts; add one with: staff add <username> --name "<name>" --role support');
    return 0;
  }
  for (const r of rows) {
    const locked = r.totp_locked_at === null ? '' : `, second factor locked since ${r.totp_locked_at} (staff totp ${r.username} resets it)`;
    ctx.out(`${r.username} (id ${r.id}, ${r.name}): ${r.role}, ${r.status}${locked}, since ${r.created_at}`);
  }
  return 0;
}

async function setStatus(username: string, status: 'active' | 'disabled', ctx: StaffOperatorContext, now: Date): Promise<number> {
  const name = normalizeUsername(username);
  const ended = await ctx.db.transaction().execute(async (trx) => {
    const id = await repo.setStaffStatus(trx, name, status);
    if (id === null) return null;
    return status === 'disabled' ? repo.revokeAllSessions(trx, id, now.toISOString()) : 0;
  });
  if (ended === null) {
    ctx.err(`no staff user ${name}`);
    return 1;
  }
  ctx.out(status === 'disabled' ? `staff ${name}: disabled, ${ended} session${ended === 1 ? '' : 's'} ended` : `staff ${name}: active`);
  return 0;
}

/** Runs `staff ...`; null when the arguments are not a command (usage). */
export async function runStaffCommand(rest: string[], ctx: StaffOperatorContext): Promise<number | null> {
  const now = (ctx.now ?? (() => new Date()))();
  const [sub, ...words] = rest;
  if ((sub === undefined || sub === 'list') && words.length === 0) return list(ctx);
  if (sub === 'add') return add(words, ctx, now);
  if (sub === 'totp' && words.length === 1) return enrolTotp(words[0], ctx, now);
  if ((sub === 'disable' || sub === 'enable') && words.length === 1) return setStatus(words[0], sub === 'disable' ? 'disabled' : 'active', ctx, now);
  return null;
}
