import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema';

/** SQL for the lookups: every function takes the database (or a transaction) first and returns rows. */
type Db = Kysely<DB> | Transaction<DB>;

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
