import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';
import { nowIso } from '../../db';
import type { SettingKey, Settings } from './settings';

/** SQL for the lookups: every function takes the database (or a transaction) first and returns rows. */
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

/** Banks a player can register with (payment types such as WW and E2P are not banks), of one market if given. */
export function listRegistrableBanks(db: Db, market?: string) {
  let q = db.selectFrom('banks').select(['code', 'name_th', 'name_en', 'market', 'english_name_only']).where('bank_type', '=', 'BANK');
  if (market) q = q.where('market', '=', market);
  return q.orderBy('sort').orderBy('code').execute();
}

/** The operator's active receiving channels, banks joined for their names. */
export function listActiveDepositChannels(db: Db) {
  return db
    .selectFrom('deposit_channels')
    .leftJoin('banks', 'banks.code', 'deposit_channels.bank_code')
    .select([
      'deposit_channels.kind',
      'deposit_channels.bank_code',
      'deposit_channels.mode',
      'deposit_channels.account_name',
      'deposit_channels.account_no',
      'deposit_channels.currency',
      'banks.name_th',
      'banks.name_en',
      'banks.bank_type',
    ])
    .where('deposit_channels.active', '=', 1)
    .orderBy('deposit_channels.sort')
    .orderBy('deposit_channels.id')
    .execute();
}

export function listSources(db: Db) {
  return db.selectFrom('sources').select(['code', 'description']).orderBy('sort').orderBy('code').execute();
}
