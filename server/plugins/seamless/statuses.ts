/**
 * Hub88's "Seamless Wallet response statuses" (Operator API) that our Wallet API answers, and when
 * (docs/seamless-wallet.md "Statuses"). Every answer is HTTP 200 with one of these in `status`.
 */
export const RS = {
  OK: 'RS_OK',
  UNKNOWN: 'RS_ERROR_UNKNOWN',
  INVALID_TOKEN: 'RS_ERROR_INVALID_TOKEN',
  INVALID_GAME: 'RS_ERROR_INVALID_GAME',
  WRONG_CURRENCY: 'RS_ERROR_WRONG_CURRENCY',
  NOT_ENOUGH_MONEY: 'RS_ERROR_NOT_ENOUGH_MONEY',
  USER_DISABLED: 'RS_ERROR_USER_DISABLED',
  INVALID_SIGNATURE: 'RS_ERROR_INVALID_SIGNATURE',
  TOKEN_EXPIRED: 'RS_ERROR_TOKEN_EXPIRED',
  WRONG_SYNTAX: 'RS_ERROR_WRONG_SYNTAX',
  WRONG_TYPES: 'RS_ERROR_WRONG_TYPES',
  DUPLICATE_TRANSACTION: 'RS_ERROR_DUPLICATE_TRANSACTION',
  TRANSACTION_DOES_NOT_EXIST: 'RS_ERROR_TRANSACTION_DOES_NOT_EXIST',
  TRANSACTION_ROLLED_BACK: 'RS_ERROR_TRANSACTION_ROLLED_BACK',
  /**
   * A responsible-play limit (our loss limit). Hub88 names it among the statuses a bet is not rolled back for (with
   * RS_ERROR_NOT_ENOUGH_MONEY: a clean refusal, not a failure), which is what a loss limit is.
   */
  LIMIT_REACHED: 'RS_ERROR_LIMIT_REACHED',
} as const;

export type RsStatus = (typeof RS)[keyof typeof RS];
