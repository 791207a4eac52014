import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { Config } from '../../config';
import { notFound } from '../../errors';
import { DEPOSIT_RULES_KEY, isInClosedHours, mergeDepositRules } from '../deposits';
import { listActiveDepositChannels, listRegistrableBanks, listSources } from './lookups-repository';
import {
  HOWTO_KEYS, TEXT_LANGS, readSetting, readSettingDoc,
  type LocalizedHtml, type LocalizedText, type Market, type SettingKey, type Settings, type TextLang,
} from '../../settings';

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
  /**
   * conditions, agreements, contact: the texts in this language; absent or not stored: th, then any stored language.
   * banks, deposit, sources: the names in this language (issue 40 item 13). The route takes ?lang=, else the SPA's
   * `lang` cookie (requestLang), so a screen that never asks still reads its player's language.
   */
  lang?: TextLang;
}

/** ?lang= when given, else the `lang` cookie the SPA sets (src/core/i18n.ts langCookie), else none. */
export function requestLang(queryLang: TextLang | undefined, cookieHeader: string | undefined): TextLang | undefined {
  if (queryLang) return queryLang;
  const m = /(?:^|;\s*)lang=([a-z]+)/.exec(cookieHeader ?? '');
  const v = m?.[1];
  return (TEXT_LANGS as readonly string[]).includes(v ?? '') ? (v as TextLang) : undefined;
}

/** A name in one language: the operator's per-language name, else the table's (Thai for th, English otherwise). */
function nameIn(names: LocalizedText | undefined, lang: TextLang | undefined, th: string, en: string): string {
  const own = lang ? names?.[lang]?.trim() : undefined;
  if (own) return own;
  return (lang ?? 'th') === 'th' ? th || en : en || th;
}

/** A text that is one string or one per language: the asked language, else Thai, else any stored. */
function textIn(doc: string | LocalizedText, lang: TextLang | undefined): string {
  if (typeof doc === 'string') return doc;
  for (const l of [lang, 'th' as const, ...TEXT_LANGS]) {
    const v = l ? doc[l] : undefined;
    if (v) return v;
  }
  return '';
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
  /** name: the bank's or method's name in the asked language (issue 40 item 13), beside the spec's nameTH and nameEN. */
  bank: { nameTH: string; nameEN: string; name: string };
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
  /** name: in the asked language (the names setting, else the table's Thai or English name). */
  async banks({ db }: LookupContext, query: LookupQuery = {}) {
    const [rows, names] = await Promise.all([listRegistrableBanks(db, query.market), readSetting(db, 'names')]);
    return rows.map((r) => ({
      code: r.code,
      nameTH: r.name_th,
      nameEN: r.name_en,
      name: nameIn(names?.banks?.[r.code], query.lang, r.name_th, r.name_en),
      market: r.market,
      englishNameOnly: r.english_name_only === 1,
    }));
  },

  /** Bank and method names and the receiving account names in the asked language (the names setting). */
  async deposit({ db }: LookupContext, query: LookupQuery = {}) {
    const [rows, setting, rulesDoc, names] = await Promise.all([
      listActiveDepositChannels(db), readSetting(db, 'deposit'), readSettingDoc(db, DEPOSIT_RULES_KEY), readSetting(db, 'names'),
    ]);
    const accountName = (stored: string) => (query.lang ? names?.accountNames?.[stored]?.[query.lang]?.trim() : undefined) || stored;
    const banks: DepositBank[] = [];
    const wallets: { mode: string; walletAccountName: string }[] = [];
    for (const r of rows) {
      if (r.kind === 'wallet') {
        wallets.push({ mode: r.mode, walletAccountName: accountName(r.account_name) });
      } else if (r.bank_code && r.name_th !== null && r.name_en !== null) {
        banks.push({
          bankCode: r.bank_code,
          bankType: r.bank_type ?? 'BANK',
          mode: r.mode,
          bank: { nameTH: r.name_th, nameEN: r.name_en, name: nameIn(names?.banks?.[r.bank_code], query.lang, r.name_th, r.name_en) },
          bankAccountName: accountName(r.account_name),
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
  async contact({ db }: LookupContext, query: LookupQuery = {}) {
    const c = await required(db, 'contact');
    return { ...c, contactText: textIn(c.contactText, query.lang) };
  },
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

  /** description: in the asked language when the names setting has it, else as stored. */
  async sources({ db }: LookupContext, query: LookupQuery = {}) {
    const [rows, names] = await Promise.all([listSources(db), readSetting(db, 'names')]);
    return rows.map((r) => ({ code: r.code, description: (query.lang ? names?.sources?.[r.code]?.[query.lang]?.trim() : undefined) || r.description }));
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
