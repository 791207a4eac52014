/**
 * The operator's settings: one JSON document per key in the `settings` table. Most are served as is by a
 * lookup (RULES.md "Wire shapes"), so they hold wire values: amounts in baht (major units), times as
 * HH:mm in Asia/Bangkok. Code that moves money converts with x100 to satang.
 */
export interface Settings {
  /** logo: the operator's logo (a site path such as /media/logo.png, or https), shown beside the name; optional. */
  info: { name: string; website: string; logo?: string };
  notice: { notice: string };
  /** contactText: HTML, one string for every language or one per language (issue 40 item 13; Thai the fallback). */
  contact: { contactText: string | LocalizedText; lineLink: string; lineName: string; lineQR: string | null };
  /** HTML strings per language; `%minPlayerAge%` is replaced by config.minPlayerAge when served. */
  conditions: LocalizedHtml;
  agreements: LocalizedHtml;
  /** Baht. */
  withdraw: { withdrawMin: number; withdrawMax: number };
  /**
   * isOpen is the operator's master switch; closeFrom/closeTo (HH:mm, Asia/Bangkok) are the daily closed
   * hours, which may wrap past midnight; null or equal means never closed by the clock.
   */
  slip: { isOpen: boolean; closeFrom: string | null; closeTo: string | null; uploadWindowMinutes: number };
  /** `gone` terminates the whole site (spec §2 navigation guard); set by `npm run operator -- site gone`. */
  site: { terminated: 'gone' | null };
  enableChatWidget: boolean;
  /**
   * isManual: deposits are checked by staff rather than matched automatically. creditMinutes: about how long an
   * automatic deposit takes to reach the wallet, as the deposit screen says it (issue 12; 1 when absent).
   */
  deposit: { isManual: boolean; creditMinutes?: number };
  /** The how-to screen's videos (spec §2), operator content served from public/media (docs/server.md "Static files"). */
  howto: { videos: HowtoVideo[] };
  /**
   * Names per language for rows the tables hold once or in Thai and English only (issue 40 item 13): banks and
   * payment methods by bank code, sources by code, receiving account names by the name deposit_channels stores.
   * Optional; a name it lacks is the table's (Thai for th, English otherwise; a source's own description).
   */
  names?: LocalizedNames;
}

/** One text per language, any language may be left out. */
export type LocalizedText = Partial<Record<TextLang, string>>;

export interface LocalizedNames {
  banks?: Record<string, LocalizedText>;
  sources?: Record<string, LocalizedText>;
  accountNames?: Record<string, LocalizedText>;
}

/** The languages texts are stored in (the SPA's locales). */
export const TEXT_LANGS = ['th', 'la', 'en'] as const;
export type TextLang = (typeof TEXT_LANGS)[number];
export type Market = 'th' | 'lao';

/**
 * A list of HTML strings per language (issue 12), served in the player's language with Thai as the fallback. A
 * plain list is the document as stored before issue 12, served for every language.
 */
export type LocalizedHtml = Partial<Record<TextLang, string[]>> | string[];

export const HOWTO_KEYS = ['wallet', 'play', 'balance', 'bonus', 'cancelBonus'] as const;
export type HowtoKey = (typeof HOWTO_KEYS)[number];

/** One how-to video: URLs (site paths such as /media/howto/wallet.webm, or https), null when there is none. */
export interface HowtoVideo {
  key: HowtoKey;
  url: string | null;
  poster: string | null;
  /** A WebVTT captions file per language given. */
  captions: { th?: string; la?: string; en?: string };
}

export type SettingKey = keyof Settings;
