import { http, HttpResponse } from 'msw';

import type { GameSlot, WalletResponse } from '../../core/walletApi';
import { server } from './server';

/** Test data in the server's shapes (docs/ledger.md), for this feature's tests only. */
export function slot(code: string, extra: Partial<GameSlot> = {}): GameSlot {
  return {
    code,
    name: code.toUpperCase(),
    category: 'slot',
    isActive: false,
    amount: 0,
    ftWalletSlot: 1,
    logo: `/games/${code}-logo.png`,
    background: `/games/${code}-bg.svg`,
    web: null,
    android: null,
    ios: null,
    ...extra,
  };
}

export function walletResponse(extra: Partial<WalletResponse> = {}): WalletResponse {
  return {
    profile: { name: 'Somchai', username: '0812345678', _id: '1', coin: 3 },
    bankAccount: { bankAccountName: 'SOMCHAI JAIDEE', bankAccountNo: '1112223334', bankCode: 'KBANK', bank: { nameTH: 'กสิกรไทย', nameEN: 'Kasikorn Bank' } },
    wallet: { amount: 1000 },
    invite: { amount: 12.5, success: 1, fail: 0 },
    slots: [
      slot('pg', { name: 'PG Soft', isActive: true, amount: 0.1, web: '/api/autoLogin/pg/pw1' }),
      slot('joker2', { name: 'Joker Gaming', isActive: true, amount: 0.2, ftWalletSlot: 10 }),
      slot('circus', { name: 'Circus Slot', ftWalletSlot: 0.5 }),
      slot('usun', { name: 'USUN Sport', category: 'sport' }),
    ],
    ...extra,
  };
}

/** Serves GET /api/wallet with whatever `current()` returns at the time; counts the calls. */
export function serveWallet(current: () => WalletResponse = () => walletResponse()) {
  const calls = { count: 0 };
  server.use(
    http.get('/api/wallet', () => {
      calls.count += 1;
      return HttpResponse.json(current());
    }),
    http.get('/api/spinwheel/active', () => HttpResponse.json({ isActive: false })),
  );
  return calls;
}
