import { RS, type RsStatus } from './statuses';
import { satangOfUnits } from './units';

/**
 * The Wallet API's request bodies, field by field as Hub88's Operator "Wallet API" names them
 * (docs/seamless-wallet.md "The contract"). They are checked by hand, after the signature and the JSON parse, and
 * not by a Fastify schema: the body must reach the signature check as raw bytes, and Hub88 tells a missing field
 * (RS_ERROR_WRONG_SYNTAX) from a field of the wrong type (RS_ERROR_WRONG_TYPES), which one ajv error does not.
 * Fields we do not use are still type-checked when present; fields Hub88 may add later are ignored.
 */

type Kind = 'string' | 'boolean' | 'integer' | 'object';

interface Field {
  name: string;
  kind: Kind;
  required: boolean;
  /** Longest accepted string (our columns); longer is RS_ERROR_WRONG_TYPES. */
  max?: number;
}

const f = (name: string, kind: Kind, required: boolean, max?: number): Field => ({ name, kind, required, max });

/** Our columns: transaction ids 128; a round is stored with the user in front of it (bet_rounds.round_id, 128). */
const ID_MAX = 128;
const ROUND_MAX = 100;
const TEXT_MAX = 255;

const INFO: Field[] = [f('user', 'string', true, TEXT_MAX), f('request_uuid', 'string', true, TEXT_MAX)];

const BALANCE: Field[] = [
  f('user', 'string', true, TEXT_MAX),
  f('token', 'string', true, TEXT_MAX),
  f('request_uuid', 'string', true, TEXT_MAX),
  // Hub88 sends it for the operator's statistics; the balance does not depend on it.
  f('game_code', 'string', false, TEXT_MAX),
  f('supplier_user', 'string', false, TEXT_MAX),
];

const MONEY_COMMON: Field[] = [
  f('user', 'string', true, TEXT_MAX),
  f('transaction_uuid', 'string', true, ID_MAX),
  f('supplier_transaction_id', 'string', false, TEXT_MAX),
  f('token', 'string', true, TEXT_MAX),
  f('supplier_user', 'string', false, TEXT_MAX),
  f('round_closed', 'boolean', false),
  f('round', 'string', true, ROUND_MAX),
  f('reward_uuid', 'string', false, TEXT_MAX),
  f('request_uuid', 'string', true, TEXT_MAX),
  f('is_free', 'boolean', false),
  f('is_aggregated', 'boolean', false),
  f('game_code', 'string', true, ID_MAX),
  f('currency', 'string', true, TEXT_MAX),
  f('bet', 'string', false, TEXT_MAX),
  f('amount', 'integer', true),
  f('meta', 'object', false),
];

const BET = MONEY_COMMON;
const WIN: Field[] = [...MONEY_COMMON, f('reference_transaction_uuid', 'string', true, ID_MAX)];
const ROLLBACK: Field[] = [
  f('user', 'string', true, TEXT_MAX),
  f('transaction_uuid', 'string', true, ID_MAX),
  f('supplier_transaction_id', 'string', false, TEXT_MAX),
  // A rollback comes whatever became of the game session: its token is not checked (Hub88: nor a win's).
  f('token', 'string', false, TEXT_MAX),
  f('round_closed', 'boolean', false),
  f('round', 'string', false, ROUND_MAX),
  f('request_uuid', 'string', true, TEXT_MAX),
  f('reference_transaction_uuid', 'string', true, ID_MAX),
  f('game_code', 'string', false, ID_MAX),
  f('meta', 'object', false),
];

function typeOk(v: unknown, kind: Kind): boolean {
  switch (kind) {
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
      return typeof v === 'number' && Number.isSafeInteger(v);
    case 'object':
      return typeof v === 'object' && v !== null && !Array.isArray(v);
  }
}

export type Checked<T> = { ok: true; value: T } | { ok: false; status: RsStatus };

/**
 * Every required field present (else RS_ERROR_WRONG_SYNTAX), then every field present of its type (else
 * RS_ERROR_WRONG_TYPES). An optional field may be null (Hub88 sends `reward_uuid: null`, `meta: null`); a required
 * one may not.
 */
function check(body: unknown, fields: Field[]): { ok: true } | { ok: false; status: RsStatus } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false, status: RS.WRONG_SYNTAX };
  const b = body as Record<string, unknown>;
  for (const fd of fields) if (fd.required && !(fd.name in b)) return { ok: false, status: RS.WRONG_SYNTAX };
  for (const fd of fields) {
    const v = b[fd.name];
    if (v === undefined || (v === null && !fd.required)) continue;
    if (!typeOk(v, fd.kind)) return { ok: false, status: RS.WRONG_TYPES };
    if (fd.max !== undefined && (v as string).length > fd.max) return { ok: false, status: RS.WRONG_TYPES };
  }
  return { ok: true };
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const bool = (v: unknown): boolean | null => (typeof v === 'boolean' ? v : null);

export interface InfoRequest {
  user: string;
  request_uuid: string;
}

export interface BalanceRequest extends InfoRequest {
  token: string;
  game_code: string | null;
}

export interface BetRequest extends InfoRequest {
  transaction_uuid: string;
  token: string;
  round: string;
  /** null when not sent: a bet leaves its round open, a win closes it (docs/seamless-wallet.md "Rounds"). */
  round_closed: boolean | null;
  game_code: string;
  currency: string;
  /** Hub88's amount (units of 1/100000). */
  amount: number;
  /** The amount in satang (whole: checked here). */
  satang: number;
  /** A free bet (a reward): nothing is taken from the wallet. */
  is_free: boolean;
}

export interface WinRequest extends BetRequest {
  reference_transaction_uuid: string;
}

export interface RollbackRequest extends InfoRequest {
  transaction_uuid: string;
  reference_transaction_uuid: string;
  round: string | null;
  round_closed: boolean | null;
  game_code: string | null;
}

export function infoRequest(body: unknown): Checked<InfoRequest> {
  const c = check(body, INFO);
  if (!c.ok) return c;
  const b = body as Record<string, unknown>;
  return { ok: true, value: { user: b.user as string, request_uuid: b.request_uuid as string } };
}

export function balanceRequest(body: unknown): Checked<BalanceRequest> {
  const c = check(body, BALANCE);
  if (!c.ok) return c;
  const b = body as Record<string, unknown>;
  return { ok: true, value: { user: b.user as string, request_uuid: b.request_uuid as string, token: b.token as string, game_code: str(b.game_code) } };
}

function moneyRequest(body: unknown, fields: Field[]): Checked<BetRequest & { reference_transaction_uuid?: string }> {
  const c = check(body, fields);
  if (!c.ok) return c;
  const b = body as Record<string, unknown>;
  const satang = satangOfUnits(b.amount as number);
  if (satang === null) return { ok: false, status: RS.WRONG_TYPES };
  return {
    ok: true,
    value: {
      user: b.user as string,
      request_uuid: b.request_uuid as string,
      transaction_uuid: b.transaction_uuid as string,
      token: b.token as string,
      round: b.round as string,
      round_closed: bool(b.round_closed),
      game_code: b.game_code as string,
      currency: b.currency as string,
      amount: b.amount as number,
      satang,
      is_free: b.is_free === true,
      ...(typeof b.reference_transaction_uuid === 'string' ? { reference_transaction_uuid: b.reference_transaction_uuid } : {}),
    },
  };
}

export function betRequest(body: unknown): Checked<BetRequest> {
  return moneyRequest(body, BET);
}

export function winRequest(body: unknown): Checked<WinRequest> {
  return moneyRequest(body, WIN) as Checked<WinRequest>;
}

export function rollbackRequest(body: unknown): Checked<RollbackRequest> {
  const c = check(body, ROLLBACK);
  if (!c.ok) return c;
  const b = body as Record<string, unknown>;
  return {
    ok: true,
    value: {
      user: b.user as string,
      request_uuid: b.request_uuid as string,
      transaction_uuid: b.transaction_uuid as string,
      reference_transaction_uuid: b.reference_transaction_uuid as string,
      round: str(b.round),
      round_closed: bool(b.round_closed),
      game_code: str(b.game_code),
    },
  };
}

/** The documented answer of the money calls and of /user/balance (Hub88's "Wallet API response"). */
export interface WalletAnswer {
  user?: string;
  status: RsStatus;
  request_uuid?: string;
  currency?: string;
  /** Hub88 units. */
  balance?: number;
}

/** For the route table (documentation: the body is sent as the very text that was signed). */
export const walletAnswerSchema = {
  type: 'object',
  required: ['status'],
  properties: {
    user: { type: 'string' },
    status: { type: 'string' },
    request_uuid: { type: 'string' },
    currency: { type: 'string' },
    balance: { type: 'integer' },
  },
} as const;
