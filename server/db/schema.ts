import type { Generated } from 'kysely';
import type { GameSimTables } from './schema-game-sim';
import type { AccountsTables } from './schema-accounts';
import type { LedgerTables } from './schema-ledger';
import type { DepositTables } from './schema-deposits';
import type { BonusTables } from './schema-bonus';
import type { InviteWheelTables } from './schema-invite-wheel';
import type { StaffTables } from './schema-staff';
import type { ChatTables } from './schema-chat';
import type { PlayTables } from './schema-play';
import type { LeaseTables } from './schema-leases';
import type { BackofficeTables } from './schema-backoffice';
import type { UploadTables } from './schema-uploads';
import type { SeamlessTables } from './schema-seamless';

/**
 * Table types for Kysely. Conventions (see server/db/portable.ts): money is integer satang,
 * timestamps ISO-8601 UTC text, booleans 0/1. A feature with its own tables declares them in
 * its own file and adds its interface to the `extends` list of DB below.
 */
export interface SettingsTable { key: string; value: string; updated_at: string }
export interface BanksTable {
  code: string; name_th: string; name_en: string; bank_type: string; english_name_only: number; sort: number;
  /** th | lao: the market whose players bank there (migration 202611261600); the column defaults to th. */
  market: string;
}
export interface SourcesTable { code: string; description: string; sort: number }
export interface DepositChannelsTable {
  id: Generated<number>; kind: 'bank' | 'wallet'; bank_code: string | null; mode: string;
  account_name: string; account_no: string | null; currency: string | null; active: number; sort: number;
}
export interface GamesTable {
  code: string; name: string; category: 'slot' | 'sport' | 'lotto'; ft_wallet_slot: number; logo: string;
  background: string; has_web: number; android: string | null; ios: string | null;
  login_with_password: number; active: number; sort: number;
  /** 'transfer' (money moves to a game account) or 'seamless' (the aggregator debits the wallet per bet; migration 202612020600). */
  wallet_mode: 'transfer' | 'seamless';
  /** The seamless aggregator ('hub88') and its game_code for this game; null for transfer games. */
  aggregator: string | null;
  aggregator_game_code: string | null;
}
export interface PlayersTable {
  id: Generated<number>; phone: string; name: string; password_hash: string; bank_code: string;
  bank_account_name: string; bank_account_no: string; currency: string; source_code: string | null;
  inviter_id: number | null; status: string; coin: number; created_at: string; updated_at: string;
  /** When the player confirmed at registration that they are at least MIN_PLAYER_AGE (issue 15); null before it. */
  age_confirmed_at: string | null;
  /** Withdrawals wait until then after a bank change (migration 202612010500, docs/accounts.md "Bank details"). */
  bank_hold_until: string | null;
  /** 1 for the demo seed's player (migration 202612010300): it signs in only while DEMO is on. */
  demo: Generated<number>;
}
export interface SessionsTable {
  id: string; player_id: number; created_at: string; expires_at: string; revoked_at: string | null;
}

export interface CoreTables {
  settings: SettingsTable;
  banks: BanksTable;
  sources: SourcesTable;
  deposit_channels: DepositChannelsTable;
  games: GamesTable;
  players: PlayersTable;
  sessions: SessionsTable;
}

export interface DB extends CoreTables, AccountsTables, GameSimTables, LedgerTables, DepositTables, BonusTables, InviteWheelTables, StaffTables, ChatTables, PlayTables, LeaseTables, BackofficeTables, UploadTables, SeamlessTables {}
