import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/schema';
import { nowIso } from '../db';
import type { SettingKey, Settings } from './types';

/**
 * The settings table: one JSON document per key. The lookups serve the operator's documents (./types); other
 * features keep their own rules here (bonus, refund, invite, wheel, deposit rules) under their own keys. Every
 * function takes the database (or a transaction) first.
 */
type Db = Kysely<DB> | Transaction<DB>;

export async function readSetting<K extends SettingKey>(db: Db, key: K): Promise<Settings[K] | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row ? (JSON.parse(row.value) as Settings[K]) : undefined;
}

/** Inserts or replaces one setting. */
export async function writeSetting<K extends SettingKey>(db: Db, key: K, value: Settings[K], now = new Date()): Promise<void> {
  await writeSettingDoc(db, key, value as object, now);
}

/**
 * A settings document another feature owns (e.g. the bonus and refund rules): an object, or undefined when the
 * row is missing or does not hold a JSON object (a broken document reads as missing, so its defaults apply).
 */
export async function readSettingDoc(db: Db, key: string): Promise<Record<string, unknown> | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  if (!row) return undefined;
  try {
    const v = JSON.parse(row.value) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Inserts or replaces a settings document. */
export async function writeSettingDoc(db: Db, key: string, value: object, now = new Date()): Promise<void> {
  const json = JSON.stringify(value);
  await db
    .insertInto('settings')
    .values({ key, value: json, updated_at: nowIso(now) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json, updated_at: nowIso(now) }))
    .execute();
}
