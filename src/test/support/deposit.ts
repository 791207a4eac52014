import { http, HttpResponse } from 'msw';

import type { DepositLookup, LastQr, QrOutcome, QrRecord } from '../../features/deposit/depositApi';

/** Test doubles of the deposit routes (docs/deposits.md), kept in memory. Not shipped: only tests import it. */
export const depositLookup: DepositLookup = {
  banks: [
    { bankCode: 'KBANK', bankType: 'BANK', mode: 'AUTO', bank: { nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank' }, bankAccountName: 'DEMO WALLET', bankAccountNo: '0123456789' },
    { bankCode: 'SCB', bankType: 'BANK', mode: 'MANUAL', bank: { nameTH: 'ธนาคารไทยพาณิชย์', nameEN: 'Siam Commercial Bank' }, bankAccountName: 'DEMO WALLET', bankAccountNo: '4061234567' },
    { bankCode: 'WW', bankType: 'PAYMENT', mode: 'AUTO', bank: { nameTH: 'วอลเล็ต (WW)', nameEN: 'Wallet QR (WW)' }, bankAccountName: 'Demo (WW)', bankAccountNo: 'WW-1' },
    { bankCode: 'E2P', bankType: 'PAYMENT', mode: 'AUTO', bank: { nameTH: 'คิวอาร์ (E2P)', nameEN: 'QR payment (E2P)' }, bankAccountName: 'Demo (E2P)', bankAccountNo: 'E2P-1' },
  ],
  wallets: [{ mode: 'gift', walletAccountName: 'Demo gift' }],
  isManual: false,
};

export function walletAnswer(amount = 1000, bankAccount = { bankCode: 'KBANK', bankAccountName: 'DEMO PLAYER' }) {
  return {
    profile: { name: 'Demo', username: '0812345678', _id: '1', coin: 0 },
    bankAccount: { ...bankAccount, bankAccountNo: '1112223334', bank: { nameTH: 'ธนาคาร', nameEN: 'Bank' } },
    wallet: { amount },
    invite: { amount: 0, success: 0, fail: 0 },
    slots: [],
  };
}

/** GET /api/account/profile of a player whose account is in this currency (BAHT or LAK). */
export function profileAnswer(currency: string) {
  return {
    profile: { _id: '1', username: '0812345678', name: 'Demo', createdAt: '2026-01-01T00:00:00.000Z' },
    bankAccount: { bankCode: 'KBANK', bankAccountName: 'DEMO PLAYER', bankAccountNo: '1112223334', currency, bank: { nameTH: 'ธนาคาร', nameEN: 'Bank' } },
  };
}

/** A PromptPay payload as the server makes them (promptparse anyId; tag 54 is the amount). */
export const QR_PAYLOAD = '00020101021229370016A000000677010111011300668123456785802TH53037645406100.0063046A1B';

export const QR_SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 4 4"><path d="M0 0h4v4H0z"/></svg>';

/**
 * One player's QRs as the server keeps them: one live QR at a time (a create ends the previous one),
 * GET answers it only for its own bank (else `last`: how that bank's latest QR ended), paying removes it
 * and credits the wallet.
 */
export function fakeQrServer({ expireIn = 300, svg = QR_SVG, payload }: { expireIn?: number; svg?: string; payload?: string } = {}) {
  let live: { id: string; bank: string; amount: number; expiresAt: number } | null = null;
  let seq = 0;
  const calls = { get: {} as Record<string, number>, post: [] as { bank: string; body: unknown }[], del: [] as string[], wallet: 0 };
  let balance = 1000;
  let refuseNext: { status: number; message: string } | null = null;
  const last: Record<string, LastQr> = {};
  const end = (status: QrOutcome) => {
    if (!live) throw new Error('no live QR');
    last[live.bank] = { qrcodeId: live.id, status };
    live = null;
  };
  const record = (): QrRecord =>
    live
      ? { qrcodeId: live.id, hasQrcode: true, bankCode: live.bank, qrcode: svg, ...(payload ? { payload } : {}), amount: live.amount, expireIn: Math.max(0, Math.floor((live.expiresAt - Date.now()) / 1000)), message: '' }
      : { qrcodeId: null, hasQrcode: false, message: '' };
  const handlers = [
    http.get('/api/lookup/deposit', () => HttpResponse.json(depositLookup)),
    http.get('/api/lookup/slip', () => HttpResponse.json({ isOpen: true, closeFrom: '23:50', closeTo: '00:10', uploadWindowMinutes: 60 })),
    // The profile's currency picks the accounts of the player's market (a baht player here).
    http.get('/api/account/profile', () => HttpResponse.json(profileAnswer('BAHT'))),
    http.get('/api/wallet', () => {
      calls.wallet += 1;
      return HttpResponse.json(walletAnswer(balance));
    }),
    http.get('/api/qrcode/:bank', ({ params }) => {
      const bank = String(params.bank);
      calls.get[bank] = (calls.get[bank] ?? 0) + 1;
      if (live && live.expiresAt <= Date.now()) end('EXPIRED');
      return HttpResponse.json(live && live.bank === bank ? record() : { qrcodeId: null, hasQrcode: false, message: '', last: last[bank] ?? null });
    }),
    http.post('/api/qrcode/:bank', async ({ params, request }) => {
      const bank = String(params.bank);
      const body = (await request.json()) as { amount: number };
      calls.post.push({ bank, body });
      if (refuseNext) {
        const { status, message } = refuseNext;
        refuseNext = null;
        return HttpResponse.json({ qrcodeId: null, hasQrcode: false, message }, { status });
      }
      seq += 1;
      if (live) end(live.expiresAt <= Date.now() ? 'EXPIRED' : 'CANCELLED');
      live = { id: `qr_${seq}`, bank, amount: body.amount, expiresAt: Date.now() + expireIn * 1000 };
      return HttpResponse.json(record());
    }),
    http.delete('/api/qrcode/:id', ({ params }) => {
      calls.del.push(String(params.id));
      if (live?.id === params.id) end('CANCELLED');
      return HttpResponse.json({ hasQrcode: false, qrcodeId: params.id, message: '' });
    }),
  ];
  return {
    handlers,
    calls,
    /** The bank pays the live QR (the webhook credited it). */
    pay() {
      if (!live) throw new Error('no live QR');
      balance += live.amount;
      end('PAID');
    },
    /** Paid with another amount: staff review it, nothing is credited. */
    payOtherAmount() {
      end('REVIEW');
    },
    /** Cancelled from another device (DELETE there). */
    cancelElsewhere() {
      end('CANCELLED');
    },
    refuseNext(status: number, message: string) {
      refuseNext = { status, message };
    },
  };
}

/** A logged-in session for preloadedState (the session feature's own helper is not ours to import). */
export const playerSession = { session: { token: 'tok-1', remember: false, login: { status: 'loggedIn' as const } } };
