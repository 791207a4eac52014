import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { nowIso } from '../../db';
import { runAudit, walletBalance, insertPlayer as insertPlayerRow } from '../../ledger';
import { signWebhook } from '../../plugins/deposits/domain/webhook-signature';

/** Helpers shared by the deposit suites (not a test file itself). */
let seq = 0;

export interface TestPlayer {
  id: number;
  token: string;
  phone: string;
  bankAccountNo: string;
  headers: { authorization: string };
}

export async function createPlayer(app: FastifyInstance, over: Partial<{ bankCode: string; bankAccountNo: string; currency: string }> = {}): Promise<TestPlayer> {
  seq++;
  const phone = `08${String(process.pid % 1000).padStart(3, '0')}${String(seq).padStart(5, '0')}`;
  const bankAccountNo = over.bankAccountNo ?? `7${String(Date.now() % 1e5).padStart(5, '0')}${String(seq).padStart(4, '0')}`;
  const now = nowIso();
  const id = await insertPlayerRow(app.db, {
    phone,
    name: `Player ${seq}`,
    password_hash: 'not-used',
    bank_code: over.bankCode ?? 'KBANK',
    bank_account_name: 'SOMCHAI JAIDEE',
    bank_account_no: bankAccountNo,
    currency: (over.currency ?? 'THB') as 'THB' | 'LAK',
    source_code: null,
    inviter_id: null,
    now,
  });
  const token = await app.tokens.issue(id);
  return { id, token, phone, bankAccountNo, headers: { authorization: `Bearer ${token}` } };
}

export const SECRET = 'whsec-test-whsec-test-whsec-test-32';

export function signedEvent(body: object | string, secret = SECRET) {
  const raw = typeof body === 'string' ? body : JSON.stringify(body);
  return { method: 'POST' as const, url: '/api/webhooks/payments', headers: { 'content-type': 'application/json', 'x-signature': signWebhook(raw, secret) }, payload: raw };
}

export const eventId = () => `evt_${crypto.randomBytes(8).toString('hex')}`;

export async function balanceOf(app: FastifyInstance, playerId: number): Promise<number> {
  return walletBalance(app.db, playerId);
}

/** Wheel coins the player's deposits earned: granted, or waiting for the deposit to be wagered (deposit_turnover). */
export async function coinsOf(app: FastifyInstance, playerId: number): Promise<number> {
  const r = await app.db.selectFrom('players').select('coin').where('id', '=', playerId).executeTakeFirstOrThrow();
  const waiting = await app.db
    .selectFrom('deposit_turnover')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('coins'), eb.val(0)).as('n'))
    .where('player_id', '=', playerId)
    .where('met_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.coin) + Number(waiting.n);
}

export async function expectLedgerOk(app: FastifyInstance): Promise<void> {
  const report = await runAudit(app.db);
  if (!report.ok) throw new Error(report.violations.join('\n'));
}

/** A multipart body with one file part (what a browser's FormData sends). */
export function multipart(fields: { name: string; filename: string; contentType: string; data: Buffer }[]) {
  const boundary = `----wallettest${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const f of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: ${f.contentType}\r\n\r\n`));
    parts.push(f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
