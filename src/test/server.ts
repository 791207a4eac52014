import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * Answers every test needs: the site is active, and it is not in demo mode (no demo banner; its own test
 * turns it on), and the chat widget is off. Tests add their own with server.use(...).
 */
export const defaultHandlers = [
  http.get('/api/lookup/active', () => HttpResponse.json({ terminated: null })),
  http.get('/api/lookup/info', () => HttpResponse.json({ name: 'Demo Wallet', website: 'https://wallet.example.com', demo: false })),
  // The chat launcher is off unless a test turns it on (features/chat/testSupport.ts).
  http.get('/api/lookup/enableChatWidget', () => HttpResponse.json({ enableChatWidget: false })),
];

export const server = setupServer(...defaultHandlers);

/** A server error in the envelope of RULES.md: non-2xx with {message: CODE}. */
export const errorResponse = (message: string, status = 400) => HttpResponse.json({ message }, { status });
