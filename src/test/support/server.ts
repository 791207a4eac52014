import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

import type { LimitsAnswer } from '../../core/playLimits';

/**
 * Answers every test needs: the site is active, and it is not in demo mode (no demo banner; its own test
 * turns it on), and the chat widget is off. Tests add their own with server.use(...).
 */
export const defaultHandlers = [
  http.get('/api/lookup/active', () => HttpResponse.json({ terminated: null })),
  http.get('/api/lookup/info', () => HttpResponse.json({ name: 'Demo Wallet', website: 'https://wallet.example.com', demo: false })),
  // The chat launcher is off unless a test turns it on (test/support/chat.ts).
  http.get('/api/lookup/enableChatWidget', () => HttpResponse.json({ enableChatWidget: false })),
  // The user layout reads the play limits (reality check): none set, no restriction, a session that just began.
  http.get('/api/limits', () => HttpResponse.json(limitsAnswer())),
  // The home and the withdraw modal say an active bonus's lock (issue 40): none unless a test serves one.
  http.get('/api/bonus/check/active', () => HttpResponse.json({ status: false, type: null, progress: null })),
];

/** A GET /api/limits answer (issue 15): no limit, no restriction, a session started now; `overrides` replace fields. */
export function limitsAnswer(overrides: Partial<LimitsAnswer> = {}): LimitsAnswer {
  const none = { value: null, pending: null };
  const now = new Date().toISOString();
  return {
    limits: { depositDay: none, depositWeek: none, depositMonth: none, lossDay: none, lossWeek: none, lossMonth: none, sessionMinutes: none },
    usage: { depositDay: 0, depositWeek: 0, depositMonth: 0, lossDay: 0, lossWeek: 0, lossMonth: 0 },
    realityMinutes: 60,
    restriction: null,
    session: { startedAt: now, now, minuteMs: 60_000, netResult: 0 },
    ...overrides,
  };
}

export const server = setupServer(...defaultHandlers);

/** A server error in the envelope of RULES.md: non-2xx with {message: CODE}. */
export const errorResponse = (message: string, status = 400) => HttpResponse.json({ message }, { status });
