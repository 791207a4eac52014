import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { Config } from '../../config';
import { notFound } from '../../errors';
import { listActiveDepositChannels, listRegistrableBanks, listSources, readSetting } from './lookups-repository';
import { HOWTO_KEYS, type SettingKey, type Settings } from './settings';
import { isInClosedHours } from './slip-hours';

/** What a lookup needs: the database, the config values some lookups reflect, and the time. */
export interface LookupContext {
  db: Kysely<DB>;
  config: Pick<Config, 'registerOtp' | 'minPlayerAge' | 'demo'>;
  now: Date;
}

async function required<K extends SettingKey>(db: Kysely<DB>, key: K): Promise<Settings[K]> {
  const v = await readSetting(db, key);
  if (v === undefined) throw notFound('NO_DATA');
  return v;
}

export interface DepositBank {
  bankCode: string;
  bankType: string;
  mode: string;
  bank: { nameTH: string; nameEN: string };
  bankAccountName: string;
  bankAccountNo: string;
  currency?: string;
}

/** Maps the database to the wire shapes of RULES.md "Wire shapes", one function per GET /api/lookup/{name}. */
export const lookups = {
  async banks({ db }: LookupContext) {
    const rows = await listRegistrableBanks(db);
    return rows.map((r) => ({ code: r.code, nameTH: r.name_th, nameEN: r.name_en }));
  },

  async deposit({ db }: LookupContext) {
    const [rows, setting] = await Promise.all([listActiveDepositChannels(db), readSetting(db, 'deposit')]);
    const banks: DepositBank[] = [];
    const wallets: { mode: string; walletAccountName: string }[] = [];
    for (const r of rows) {
      if (r.kind === 'wallet') {
        wallets.push({ mode: r.mode, walletAccountName: r.account_name });
      } else if (r.bank_code && r.name_th !== null && r.name_en !== null) {
        banks.push({
          bankCode: r.bank_code,
          bankType: r.bank_type ?? 'BANK',
          mode: r.mode,
          bank: { nameTH: r.name_th, nameEN: r.name_en },
          bankAccountName: r.account_name,
          bankAccountNo: r.account_no ?? '',
          ...(r.currency ? { currency: r.currency } : {}),
        });
      }
    }
    return { banks, wallets, isManual: setting?.isManual ?? false };
  },

  async conditions({ db, config }: LookupContext) {
    const list = await required(db, 'conditions');
    return list.map((html) => html.replaceAll('%minPlayerAge%', String(config.minPlayerAge)));
  },

  agreements: ({ db }: LookupContext) => required(db, 'agreements'),

  /**
   * demo: DEMO is on (simulated payments, the open /demo/bank page); the SPA shows its demo banner. minPlayerAge:
   * MIN_PLAYER_AGE, named by the registration's age checkbox. Both from the config, never the stored document.
   */
  async info({ db, config }: LookupContext) {
    const { name, website } = await required(db, 'info');
    return { name, website, demo: config.demo, minPlayerAge: config.minPlayerAge };
  },
  notice: ({ db }: LookupContext) => required(db, 'notice'),
  contact: ({ db }: LookupContext) => required(db, 'contact'),
  withdraw: ({ db }: LookupContext) => required(db, 'withdraw'),

  /** isOpen: the operator's switch is on and the Bangkok clock is outside the daily closed hours. */
  async slip({ db, now }: LookupContext) {
    const s = await required(db, 'slip');
    return {
      isOpen: s.isOpen && !isInClosedHours(s.closeFrom, s.closeTo, now),
      closeFrom: s.closeFrom,
      closeTo: s.closeTo,
      uploadWindowMinutes: s.uploadWindowMinutes,
    };
  },

  async sources({ db }: LookupContext) {
    return listSources(db);
  },

  /** A missing row means the operator never terminated the site. */
  async active({ db }: LookupContext) {
    const s = await readSetting(db, 'site');
    return { terminated: s?.terminated === 'gone' ? ('gone' as const) : null };
  },

  async registerOTP({ config }: LookupContext) {
    return { registerOTP: config.registerOtp };
  },

  async enableChatWidget({ db }: LookupContext) {
    return { enableChatWidget: (await readSetting(db, 'enableChatWidget')) ?? false };
  },

  /** The how-to videos in the screen's order (wallet, play, balance, bonus, cancelBonus); a key the document lacks has no video. */
  async howto({ db }: LookupContext) {
    const { videos } = await required(db, 'howto');
    return {
      videos: HOWTO_KEYS.map((key) => {
        const v = videos.find((video) => video.key === key);
        return { key, url: v?.url ?? null, poster: v?.poster ?? null, captions: v?.captions ?? {} };
      }),
    };
  },
};

export type LookupName = keyof typeof lookups;
export const LOOKUP_NAMES = Object.keys(lookups) as LookupName[];

export function isLookupName(name: string): name is LookupName {
  return Object.prototype.hasOwnProperty.call(lookups, name);
}
