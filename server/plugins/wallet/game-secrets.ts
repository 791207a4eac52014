import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import { AppError } from '../../errors';
import { openSecret, sealSecret, SEALED_PREFIX } from '../../lib/secret-box';
import { listUnsealedGameAccounts, sealGameAccountValues } from './repository';

/**
 * Game account passwords, and the provider's event object that repeats them, are stored sealed with
 * GAME_SECRET_KEY (server/lib/secret-box.ts) and opened only to show them to their owner (docs/game-provider.md
 * "Stored credentials").
 */
export interface GameSecrets {
  seal(plain: string): string;
  /**
   * The plaintext of a stored value. One that does not open with the key (the key changed, the row was
   * altered, or it was never sealed) is logged and answered 500 INTERNAL_SERVER_ERROR.
   */
  open(stored: string, at: SecretOwner): string;
  /** Like open, but null (logged) instead of an error: for views that can go on without the value. */
  tryOpen(stored: string, at: SecretOwner): string | null;
  /** The same secrets, logging through `log` (a request's logger, so the line carries its id). */
  withLog(log: ErrorLog): GameSecrets;
}

export interface SecretOwner {
  playerId: number;
  gameCode: string;
}

export interface ErrorLog {
  error(obj: object, msg: string): void;
}

export function gameSecrets(key: Buffer, log: ErrorLog): GameSecrets {
  return new KeyedSecrets(key, log);
}

/**
 * A class, not closures: the wallet read makes one per request (withLog, with the request's logger), and a closure
 * made under tsx is also named at run time (esbuild's `__name`), 1 % of the read's CPU in a profile (2026-11-29).
 */
class KeyedSecrets implements GameSecrets {
  constructor(
    private readonly key: Buffer,
    private readonly log: ErrorLog,
  ) {}

  seal(plain: string): string {
    return sealSecret(this.key, plain);
  }

  tryOpen(stored: string, at: SecretOwner): string | null {
    try {
      return openSecret(this.key, stored);
    } catch {
      // Never the value itself, and no stack: the reason is known.
      this.log.error({ playerId: at.playerId, gameCode: at.gameCode }, 'game account secret does not open with GAME_SECRET_KEY');
      return null;
    }
  }

  open(stored: string, at: SecretOwner): string {
    const plain = this.tryOpen(stored, at);
    if (plain === null) throw new AppError(500, 'INTERNAL_SERVER_ERROR');
    return plain;
  }

  withLog(log: ErrorLog): GameSecrets {
    return new KeyedSecrets(this.key, log);
  }
}

/**
 * Seals the game account passwords and events still stored as plaintext (rows written before encryption).
 * Run at every start after the migrations (server/start.ts), where the key is known. Idempotent: a value
 * starting with `v1:` is already sealed and left alone, and each row is updated only if it still holds the
 * plaintext that was read, so two processes starting together do not seal a value twice. Returns the number
 * of rows sealed.
 */
export async function sealPlaintextGameSecrets(db: Kysely<DB>, key: Buffer): Promise<number> {
  let sealed = 0;
  for (const row of await listUnsealedGameAccounts(db)) {
    const values: { password?: string; event?: string } = {};
    if (!row.password.startsWith(SEALED_PREFIX)) values.password = sealSecret(key, row.password);
    if (row.event !== null && !row.event.startsWith(SEALED_PREFIX)) values.event = sealSecret(key, row.event);
    if (values.password === undefined && values.event === undefined) continue;
    if (await sealGameAccountValues(db, row, values)) sealed++;
  }
  return sealed;
}
