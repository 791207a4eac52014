/**
 * The numbers behind the account rules (RULES.md "Accounts"). Each can be changed with an environment
 * variable; the defaults are the product's.
 */
export interface AccountRules {
  passwordMinLength: number;
  bankAccountNoMin: number;
  bankAccountNoMax: number;
  /**
   * Password tries checked per phone (login) or per player (password change) within loginWindowSeconds; the
   * try that reaches it locks further tries for loginLockSeconds. Each try is counted before it is checked.
   */
  loginMaxFailures: number;
  loginWindowSeconds: number;
  loginLockSeconds: number;
  otpTtlSeconds: number;
  /** Verification attempts per OTP; the next one answers OTP_BLOCK. */
  otpMaxTries: number;
  /** Sends per phone within a minute (REQUEST_LIMIT_1MIN) and within an hour (REQUEST_LIMIT). */
  otpSendsPerMinute: number;
  otpSendsPerHour: number;
  /** How long a verified phone may register (or skip the OTP step), or a verified reset code set a new password. */
  otpVerifiedValidSeconds: number;
  /**
   * After a change of the bank or the account number, withdrawals wait this long (issue 39 row 6): a stolen token
   * that redirects the payouts gives the player a day to notice and call support.
   */
  bankChangeCooldownSeconds: number;
}

export const DEFAULT_RULES: AccountRules = {
  passwordMinLength: 6,
  bankAccountNoMin: 10,
  bankAccountNoMax: 15,
  loginMaxFailures: 10,
  loginWindowSeconds: 15 * 60,
  loginLockSeconds: 15 * 60,
  otpTtlSeconds: 5 * 60,
  otpMaxTries: 5,
  otpSendsPerMinute: 1,
  otpSendsPerHour: 5,
  otpVerifiedValidSeconds: 30 * 60,
  bankChangeCooldownSeconds: 24 * 3600,
};

const ENV: Record<keyof AccountRules, string> = {
  passwordMinLength: 'PASSWORD_MIN_LENGTH',
  bankAccountNoMin: 'BANK_ACCOUNT_NO_MIN',
  bankAccountNoMax: 'BANK_ACCOUNT_NO_MAX',
  loginMaxFailures: 'LOGIN_MAX_FAILURES',
  loginWindowSeconds: 'LOGIN_WINDOW_SECONDS',
  loginLockSeconds: 'LOGIN_LOCK_SECONDS',
  otpTtlSeconds: 'OTP_TTL_SECONDS',
  otpMaxTries: 'OTP_MAX_TRIES',
  otpSendsPerMinute: 'OTP_SENDS_PER_MINUTE',
  otpSendsPerHour: 'OTP_SENDS_PER_HOUR',
  otpVerifiedValidSeconds: 'OTP_VERIFIED_VALID_SECONDS',
  bankChangeCooldownSeconds: 'BANK_CHANGE_COOLDOWN_SECONDS',
};

export function loadAccountRules(env: Record<string, string | undefined> = process.env): AccountRules {
  const rules = { ...DEFAULT_RULES };
  for (const key of Object.keys(ENV) as (keyof AccountRules)[]) {
    const v = env[ENV[key]];
    if (v === undefined || v === '') continue;
    if (!/^\d+$/.test(v) || Number(v) < 1) throw new Error(`${ENV[key]} must be a positive whole number, got "${v}"`);
    rules[key] = Number(v);
  }
  if (rules.bankAccountNoMin > rules.bankAccountNoMax) throw new Error('BANK_ACCOUNT_NO_MIN must not exceed BANK_ACCOUNT_NO_MAX');
  return rules;
}
