import { http, HttpResponse } from 'msw';

import { server } from './server';

/**
 * Answers the calls the logged-in pages make on arrival (wallet, spin-wheel switch, profile, bonuses, statement and its bank names), for tests
 * about something else (routing, menus, logout) that land on those pages. Feature tests serve their own.
 */
export function serveUserArea(): void {
  server.use(
    http.get('/api/wallet', () =>
      HttpResponse.json({
        profile: { name: 'Demo', username: '0812345678', _id: '1', coin: 0 },
        bankAccount: { bankAccountName: 'DEMO PLAYER', bankAccountNo: '1234567890', bankCode: 'KBANK', bank: { nameTH: 'กสิกรไทย', nameEN: 'Kasikorn Bank' } },
        wallet: { amount: 0 },
        invite: { amount: 0, success: 0, fail: 0 },
        slots: [],
      }),
    ),
    http.get('/api/spinwheel/active', () => HttpResponse.json({ isActive: false })),
    http.get('/api/account/profile', () =>
      HttpResponse.json({
        profile: { _id: '1', username: '0812345678', name: 'Demo', createdAt: '2026-11-25T00:00:00.000Z' },
        bankAccount: { bankAccountName: 'DEMO PLAYER', bankAccountNo: '1234567890', bankCode: 'KBANK', bank: { nameTH: 'กสิกรไทย', nameEN: 'Kasikorn Bank' } },
      }),
    ),
    http.get('/api/bonus', () => HttpResponse.json({ bonuses: [] })),
    http.get('/api/bonus/check/active', () => HttpResponse.json({ status: false, type: null, progress: null })),
    http.post('/api/statement', () => HttpResponse.json({ total: 0, statements: [] })),
    // The statement names banks in the player's language (issue 40 item 5).
    http.get('/api/lookup/banks', () => HttpResponse.json([{ code: 'KBANK', nameTH: 'กสิกรไทย', nameEN: 'Kasikorn Bank' }])),
  );
}
