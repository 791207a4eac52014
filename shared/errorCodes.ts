/** Every error code of spec §8. Each has a translation under errors.<CODE> in every locale. */
export const ERROR_CODES = [
  // Auth and access
  'UNAUTHORIZED', 'EXPIRED_AUTH_TOKEN', 'INVALID_USER_1', 'INVALID_USER_2', 'INVALID_USER_3', 'INVALID_USER_4', 'INVALID_IP',
  // Rate limits
  'OTP_BLOCK', 'REQUEST_LIMIT', 'REQUEST_LIMIT_1MIN',
  // OTP
  'OTP_TOKEN_INVALID', 'OTP_NOT_EXIST', 'OTP_VERIFIED', 'OTP_EXPIRED', 'OTP_CODE_INVALID', 'OTP_CODE_VALID', 'OTP_SEND_FAIL',
  'OTP_VERIFY_FAIL', 'UNVERIFIED_OTP',
  // Registration
  'EXISTING_USER', 'EXISTING_BANK', 'INVALID_USER_INFO', 'INVALID_BANK', 'BANK_ACCOUNT_NAME_ENG', 'REGISTER_FAIL',
  'PHONE_NUMBER_REQUIRE_10_DIGIT',
  // Login
  'NO_USER', 'WRONG_PASSWORD', 'WRONG_CREDENTIAL', 'INACTIVE_USER', 'LOGIN_FAIL',
  // Bonus
  'BONUS_REMAINING', 'BONUS_ALREADY_ACTIVE', 'BONUS_MAX_CLAIMED', 'BONUS_CONDITION', 'BONUS_CLEAR', 'BONUS_FULL',
  // Invite
  'INVITE_COLLECT', 'INVITE_INACTIVE', 'NO_INVITE_BONUS', 'NO_INVITEE_PLAY_INFO', 'INVITE_BONUS_SUCCESS', 'INVITE_BONUS_FAIL',
  // General
  'INTERNAL_SERVER_ERROR', 'KEY_MISSING', 'KEY_INVALID', 'NO_DATA', 'NO_BANK', 'NO_WALLET', 'NO_GAME',
  // Promotion and QR
  'NO_PROMOTION', 'PROMOTION_RECEIVED', 'QR_FAIL',
  // Refund
  'NO_REFUND', 'REFUND_CONDITION', 'REFUND_SUCCESS', 'REFUND_INACTIVE', 'REFUND_MINIMUM',
  // Slot and game
  'SLOT_ALREADY_ACTIVE', 'SLOT_ACTIVATE_FAIL', 'SLOT_NO_ACCOUNT', 'SLOT_RESET_PASSWORD_FAIL', 'GAME_ACTIVATION_FAIL',
  // Transfer
  'TRANSFER_MINIMUM', 'MONEY_NOT_ENOUGH', 'TRANSFER_FAIL',
  // Slip and gift link
  'SLIP_UPLOAD_FAIL', 'SLIP_NO_FILE', 'SLIP_INVALID_FILE', 'TRUELINK_DUPLICATE', 'TRUELINK_INVALID',
  // Coupons
  'NO_CLAIMABLE_COUPON', 'INVALID_PRIZE_CODE', 'INVALID_CODE', 'INVALID_COUPON_TYPE', 'COUPON_EXPIRED',
] as const;

/**
 * Codes this product adds where spec §8 has none for a refusal (docs/server.md "Error envelope"). Translated like
 * the others under errors.<CODE>, and accepted by the server's route sweep.
 */
export const PROJECT_ERROR_CODES = [
  // Prize wheel: no wheel is active; a spin with no coin left.
  'WHEEL_INACTIVE', 'NO_COIN',
  // Chat uploads: a type or extension the chat does not take; a file over the size cap (413).
  'CHAT_FILE_NOT_SUPPORTED', 'CHAT_FILE_TOO_LARGE',
  // Uploads (chat media, slips) paused: the slip readers' queue is full or DATA_DIR is below its free-disk mark (503).
  'UPLOAD_UNAVAILABLE',
  // The database is out of reach for a moment: restarting, stopped, or no connection within the pool's wait (503,
  // issue 43, docs/operations.md "Without Redis, and other faults").
  'SERVICE_UNAVAILABLE',
  // Responsible play (docs/responsible-play.md): over a deposit or loss limit (422); past the session limit, on a
  // time-out, self-excluded (403); a restriction ending later already runs (409); a bad limit, period or missing
  // confirmation (422); registration without the age confirmation (422).
  'DEPOSIT_LIMIT', 'LOSS_LIMIT', 'SESSION_LIMIT', 'PLAY_TIMEOUT', 'SELF_EXCLUDED', 'RESTRICTION_ACTIVE', 'LIMIT_INVALID', 'AGE_NOT_CONFIRMED',
  // A new password (registration, password change) shorter than the rule the info lookup names (issue 12).
  'PASSWORD_TOO_SHORT',
  // A withdrawal while part of a cleared or failed bonus is still to be taken back from the games (422, issue 39
  // row 1, docs/bonus.md "Taking the bonus back").
  'BONUS_DEBT',
  // A bank change without the current password (422); a withdrawal during the hold after a bank change (422)
  // (issue 39 row 6, docs/accounts.md "Bank details").
  'PASSWORD_REQUIRED', 'BANK_CHANGE_COOLDOWN',
] as const;

/**
 * Codes of the staff back office (issue 14, docs/staff.md "Back office"): answered only to staff routes, so the
 * player's app never shows them and has no text for them; the staff console translates them in src/staff/i18n.
 * An action without a reason of 1-500 characters (400); a review already decided (409) or without a player to credit
 * (422); a payout no longer in progress (409), or one staff may not fail because the gateway neither reports it failed nor
 * could cancel it (409 PAYOUT_NOT_FAILED); a player who is gone (409); a player status staff cannot set (400);
 * a wrong or already used second-factor code at the staff login (401, docs/staff.md "Second factor"); support setting
 * active a player that payments or an admin set inactive (403 REACTIVATE_NOT_ALLOWED, issue 39).
 * The route sweep accepts them.
 */
export const STAFF_ERROR_CODES = ['REASON_REQUIRED', 'REVIEW_DECIDED', 'REVIEW_NO_PLAYER', 'PAYOUT_SETTLED', 'PAYOUT_NOT_FAILED', 'PLAYER_GONE', 'INVALID_STATUS', 'WRONG_TOTP', 'TOTP_REQUIRED', 'REACTIVATE_NOT_ALLOWED',
  // The seamless back office (issue 42, docs/seamless-wallet.md "Back office"), all 400: a rounds cursor that is not
  // one the server gave; a report day that is not a YYYY-MM-DD date; `to` before `from`; a report over 92 days.
  'INVALID_CURSOR', 'INVALID_DATE', 'INVALID_RANGE', 'RANGE_TOO_LONG'] as const;

/**
 * Codes only the player's wallet screens meet (issue 42, docs/seamless-wallet.md): a transfer or game-account call
 * for a game that plays from the wallet (422 SEAMLESS_GAME); a seamless launch while no aggregator is configured
 * (503 SEAMLESS_OFF). Translated under wallet.errors.<CODE> (the wallet's part of the texts, not downloaded at /login)
 * and accepted by the route sweep.
 */
export const WALLET_ERROR_CODES = ['SEAMLESS_GAME', 'SEAMLESS_OFF'] as const;

/** Slip reason codes (spec §8), shown in parentheses next to a slip's status: slipReasons.<CODE>. */
export const SLIP_REASON_CODES = [
  'UPLOADED_FILE_NOT_EXIST', 'IMG_SIZE_UNABLE_TO_PROCESS', 'CANNOT_READ_CROPPED_IMAGE', 'DEST_ACC_INVALID',
  'SLIP_REFNO_DUPLICATED', 'UNSTABLE_REFNO_ON_SLIP', 'TRIPPLE_WRONG_CAPTCHA', 'INVALID_SLIP', 'NOT_MATCH',
  'EXPIRED_SLIP', 'UNKNOW_ERROR',
] as const;

/** Codes that end the session (spec §8): the player must log in again. */
export const REAUTH_CODES: ReadonlySet<string> = new Set([
  'invalid-token', 'UNAUTHORIZED', 'EXPIRED_AUTH_TOKEN', 'INVALID_USER_1', 'INVALID_USER_2', 'INVALID_USER_3', 'INVALID_USER_4',
]);
