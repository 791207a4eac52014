/** JSON schemas of the account and OTP routes. Bodies may carry extra fields (ignored); known ones are typed and bounded. */

/** Every route answers its errors as { message: CODE }. */
export { errorBody, errors as errorResponses } from '../../lib/wire-schemas';

export const okBody = { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } as const;

const text = (maxLength: number) => ({ type: 'string', maxLength }) as const;
const filled = (maxLength: number) => ({ type: 'string', minLength: 1, maxLength }) as const;

export const loginBody = {
  type: 'object',
  properties: { username: filled(32), password: filled(128) },
  required: ['username', 'password'],
} as const;

export const tokenBody = { type: 'object', properties: { token: { type: 'string' } }, required: ['token'] } as const;

const registrationProperties = {
  name: text(128),
  username: text(32),
  password: text(128),
  sourceCode: text(32),
  inviteCode: { type: ['string', 'null'], maxLength: 32 },
  bankCode: text(16),
  bankAccountName: text(128),
  bankAccountNo: text(32),
  currency: { type: 'string', enum: ['BAHT', 'LAK', ''] },
  // Checked by the service (422 AGE_NOT_CONFIRMED unless true), not here: a schema failure would be a generic 400.
  ageConfirmed: { description: 'true: the player is at least MIN_PLAYER_AGE' },
} as const;

/** Step 1 of the SPA's registration (issue 12): the phone alone. */
export const checkPhoneBody = {
  type: 'object',
  properties: { username: text(32) },
  required: ['username'],
} as const;

/** Step 3 of the SPA's registration: the bank fields may still be missing. */
export const validateBody = {
  type: 'object',
  properties: registrationProperties,
  required: ['name', 'username', 'password', 'sourceCode'],
} as const;

export const registerBody = {
  type: 'object',
  properties: registrationProperties,
  required: ['name', 'username', 'password', 'sourceCode', 'bankCode', 'bankAccountName', 'bankAccountNo'],
} as const;

/** The BankAccount entity of spec §3, as the profile and the wallet answers carry it. */
export const bankAccountView = {
  type: 'object',
  properties: {
    bankAccountName: { type: 'string' },
    bankAccountNo: { type: 'string' },
    bankCode: { type: 'string' },
    currency: { type: 'string' },
    bank: {
      type: 'object',
      properties: { nameTH: { type: 'string' }, nameEN: { type: 'string' } },
      required: ['nameTH', 'nameEN'],
    },
  },
  required: ['bankAccountName', 'bankAccountNo', 'bankCode', 'bank'],
} as const;

export const profileView = {
  type: 'object',
  properties: {
    profile: {
      type: 'object',
      properties: { _id: { type: 'string' }, username: { type: 'string' }, name: { type: 'string' }, createdAt: { type: 'string' } },
      required: ['_id', 'username', 'name', 'createdAt'],
    },
    bankAccount: {
      ...bankAccountView,
      // When withdrawals open again after a bank change (issue 39 row 6); null: no hold.
      properties: { ...bankAccountView.properties, withdrawHoldUntil: { type: ['string', 'null'] } },
    },
  },
  required: ['profile', 'bankAccount'],
} as const;

export const profileBody = {
  type: 'object',
  // password: the current one, needed when the bank or the account number changes (not for a name-only edit).
  properties: { name: text(128), bankCode: text(16), bankAccountName: text(128), bankAccountNo: text(32), password: text(128) },
  required: ['name', 'bankCode', 'bankAccountName', 'bankAccountNo'],
} as const;

export const bankAccountNameBody = {
  type: 'object',
  properties: { bankCode: text(16), bankAccountName: text(128) },
  required: ['bankCode', 'bankAccountName'],
} as const;

export const changePasswordBody = {
  type: 'object',
  properties: { oldPassword: filled(128), newPassword: text(128) },
  required: ['oldPassword', 'newPassword'],
} as const;

export const changePasswordReply = {
  type: 'object',
  properties: { message: { type: 'string' }, token: { type: 'string' } },
  required: ['message', 'token'],
} as const;

export const otpSendBody = {
  type: 'object',
  // lang: the player's language for the SMS (issue 12); absent: Accept-Language, then the market's language.
  properties: { phoneNumber: text(32), lang: { type: 'string', enum: ['th', 'la', 'en'] } },
  required: ['phoneNumber'],
} as const;

export const otpSendReply = {
  type: 'object',
  properties: { otpRef: { type: 'string' }, otpToken: { type: 'string' }, code: { type: 'string' } },
} as const;

export const otpVerifyBody = {
  type: 'object',
  properties: { otpToken: filled(128), otpCode: filled(16) },
  required: ['otpToken', 'otpCode'],
} as const;

export const otpVerifyReply = { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] } as const;

/** POST /api/account/forgot (issue 40 item 4): the phone whose password is forgotten, and the SMS's language. */
export const forgotBody = otpSendBody;

/** Every phone of the right format gets this answer, registered or not. */
export const forgotReply = {
  type: 'object',
  properties: { otpRef: { type: 'string' }, otpToken: { type: 'string' } },
  required: ['otpRef', 'otpToken'],
} as const;

/** POST /api/account/reset: the token of a verified reset code and the new password. */
export const resetBody = {
  type: 'object',
  properties: { otpToken: filled(128), newPassword: text(128) },
  required: ['otpToken', 'newPassword'],
} as const;
