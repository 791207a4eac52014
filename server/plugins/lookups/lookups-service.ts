import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { Config } from '../../config';
import { notFound } from '../../errors';
import { DEPOSIT_RULES_KEY, mergeDepositRules } from '../deposits/domain/rules';
import { listActiveDepositChannels, listRegistrableBanks, listSources, readSetting, readSettingDoc } from './lookups-repository';
import { HOWTO_KEYS, TEXT_LANGS, type LocalizedHtml, type Market, type SettingKey, type Settings, type TextLang } from './settings';
import { isInClosedHours } from './slip-hours';

/** What a lookup needs: the database, the config values some lookups reflect, and the time. */
export interface LookupContext {
  db: Kysely<DB>;
  config: Pick<Config, 'registerOtp' | 'minPlayerAge' | 'demo'>;
  now: Date;
  /** The accounts rule the registration's password hint names (PASSWORD_MIN_LENGTH). */
  passwordMinLength: number;
}

/** The query a lookup may take (schemas.ts lookupQuery): each lookup reads only its own parameter. */
export interface LookupQuery {
  /** banks: only the banks of this market (th | lao); absent: every bank. */
  market?: Market;
  /** conditions, agreements: the texts in this language; absent or not stored: th, then any stored language. */
  lang?: TextLang;
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

/**
 * One language's list of a per-language document (settings.ts LocalizedHtml): the asked language, else Thai, else
 * the first language stored. A plain list (a document written before issue 12) is served whatever the language.
 */
export function inLanguage(doc: LocalizedHtml, lang: TextLang | undefined): string[] {
  if (Array.isArray(doc)) return doc;
  for (const l of [lang, 'th' as const, ...TEXT_LANGS]) {
    const list = l ? doc[l] : undefined;
    if (list && list.length > 0) return list;
  }
  return [];
}

const baht = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** Maps the database to the wire shapes of RULES.md "Wire shapes", one function per GET /api/lookup/{name}. */
export const lookups = {
  /** englishNameOnly: the account name must be A-Z and spaces (KTB, TMB, BBL); market: whose players bank there. */
  async banks({ db }: LookupContext, query: LookupQuery = {}) {
    const rows = await listRegistrableBanks(db, query.market);
    return rows.map((r) => ({ code: r.code, nameTH: r.name_th, nameEN: r.name_en, market: r.market, englishNameOnly: r.english_name_only === 1 }));
  },

  async deposit({ db }: LookupContext) {
    const [rows, setting, rulesDoc] = await Promise.all([listActiveDepositChannels(db), readSetting(db, 'deposit'), readSettingDoc(db, DEPOSIT_RULES_KEY)]);
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
    // The QR minimums the server enforces (depositRules), so the QR form's hints name the operator's values; the
    // gift minimum and the credit time likewise (issue 12: texts name the configured values, not fixed ones).
    const rules = mergeDepositRules(rulesDoc);
    return {
      banks,
      wallets,
      isManual: setting?.isManual ?? false,
      qrMinimums: { KBANK: rules.qrMinimum, WW: rules.wwMinimum, E2P: rules.e2pMinimum },
      giftMinimum: rules.giftMinimum,
      creditMinutes: setting?.creditMinutes ?? 1,
    };
  },

  /** %minPlayerAge%, %withdrawMin%, %withdrawMax%, %uploadWindowMinutes% and %giftMinimum% are filled from the config and settings. */
  async conditions({ db, config }: LookupContext, query: LookupQuery = {}) {
    const [doc, withdraw, slip, rulesDoc] = await Promise.all([
      required(db, 'conditions'), readSetting(db, 'withdraw'), readSetting(db, 'slip'), readSettingDoc(db, DEPOSIT_RULES_KEY),
    ]);
    const values: Record<string, string> = { minPlayerAge: String(config.minPlayerAge), giftMinimum: baht(mergeDepositRules(rulesDoc).giftMinimum) };
    if (withdraw) Object.assign(values, { withdrawMin: baht(withdraw.withdrawMin), withdrawMax: baht(withdraw.withdrawMax) });
    if (slip) values.uploadWindowMinutes = String(slip.uploadWindowMinutes);
    return inLanguage(doc, query.lang).map((html) => html.replace(/%(\w+)%/g, (whole, name: string) => values[name] ?? whole));
  },

  agreements: async ({ db }: LookupContext, query: LookupQuery = {}) => inLanguage(await required(db, 'agreements'), query.lang),

  /**
   * demo: DEMO is on (simulated payments, the open /demo/bank page); the SPA shows its demo banner. minPlayerAge:
   * MIN_PLAYER_AGE, named by the registration's age checkbox. Both from the config, never the stored document.
   */
  async info({ db, config, passwordMinLength }: LookupContext) {
    const { name, website, logo } = await required(db, 'info');
    return { name, website, ...(typeof logo === 'string' && logo ? { logo } : {}), demo: config.demo, minPlayerAge: config.minPlayerAge, passwordMinLength };
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
