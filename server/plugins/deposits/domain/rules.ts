import { DEMO_PROMPTPAY_ID, normalizePromptPayId } from './promptpay';
import { MAX_SLIP_BYTES } from './slip-qr';

/**
 * The deposit rules (RULES.md "Deposits"), every number configurable. Operator-tunable values live in the
 * settings table under the key `depositRules` (a JSON object; any field may be left out, amounts in baht
 * like every other setting); the defaults below are the seeded values of RULES.md.
 */
export interface DepositRules {
  /** Baht. KBANK QR minimum (the configured QR minimum; KBANK also needs > 0). */
  qrMinimum: number;
  /** Baht. Gateway channel minimums. */
  wwMinimum: number;
  e2pMinimum: number;
  /** Baht. Largest QR any channel creates (a typo guard, not a limit the spec names). */
  qrMaximum: number;
  qrValidityMinutes: number;
  /** Baht. A deposit of at least this earns coinsPerDeposit wheel coins. */
  coinThreshold: number;
  coinsPerDeposit: number;
  /** The coins are granted once rounds played after the deposit bet coinTurnover x its amount (0: at once; issue 39). */
  coinTurnover: number;
  /** Baht. Gift-voucher minimum (spec §1). */
  giftMinimum: number;
  /** Bytes. Largest slip upload. */
  slipMaxBytes: number;
  /**
   * NOT_MATCH and unreadable slips (another account's transfer; INVALID_SLIP, IMG_SIZE_UNABLE_TO_PROCESS: each cost a
   * slip reader's time) one player may upload within slipNotMatchWindowMinutes; at the limit every further upload of
   * that player is 429 REQUEST_LIMIT until the window moves on. 0: off.
   */
  slipNotMatchLimit: number;
  slipNotMatchWindowMinutes: number;
}

export const DEFAULT_DEPOSIT_RULES: DepositRules = {
  qrMinimum: 1,
  wwMinimum: 100,
  e2pMinimum: 50,
  qrMaximum: 500_000,
  qrValidityMinutes: 5,
  coinThreshold: 100,
  coinsPerDeposit: 1,
  coinTurnover: 1,
  giftMinimum: 2,
  slipMaxBytes: MAX_SLIP_BYTES,
  slipNotMatchLimit: 5,
  slipNotMatchWindowMinutes: 60,
};

export const DEPOSIT_RULES_KEY = 'depositRules';

/** Merges a stored (partial) rules document over the defaults, ignoring fields of the wrong shape. */
export function mergeDepositRules(stored: unknown): DepositRules {
  const rules = { ...DEFAULT_DEPOSIT_RULES };
  if (stored && typeof stored === 'object') {
    for (const key of Object.keys(DEFAULT_DEPOSIT_RULES) as (keyof DepositRules)[]) {
      const v = (stored as Record<string, unknown>)[key];
      if (typeof v === 'number' && Number.isFinite(v) && v >= 0) rules[key] = v;
    }
  }
  return rules;
}

/** Environment settings of the deposit flows (not operator rules): who receives the money, which adapters. */
export interface DepositEnv {
  /** The operator's PromptPay id the KBANK QR pays (PROMPTPAY_ID; demo default a phone number). */
  promptPayId: string;
  /** The account name shown by the demo bank and recorded as the receiver name. */
  operatorName: string;
  /** Where uploads go: {DATA_DIR}/uploads/slips. */
  uploadsDir: string;
  /** DATA_DIR: its file system's free space is the uploads' watermark (server/db/upload-quota.ts). */
  dataDir: string;
  /** The operator's mobile wallet that gift vouchers are redeemed into (GIFT_RECEIVER_MOBILE). */
  giftReceiverMobile: string;
}

export function depositEnv(env: Record<string, string | undefined>, dataDir: string): DepositEnv {
  return {
    promptPayId: normalizePromptPayId(env.PROMPTPAY_ID || DEMO_PROMPTPAY_ID),
    operatorName: env.PROMPTPAY_NAME || 'DEMO OPERATOR CO LTD',
    uploadsDir: `${dataDir.replace(/\/+$/, '')}/uploads/slips`,
    dataDir,
    giftReceiverMobile: env.GIFT_RECEIVER_MOBILE || '0812345678',
  };
}
