import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import type { PreloadedState } from '../../app/store';
import { renderApp } from '../../test/support/render';
import { server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';
import { botAnswer } from '../../../server/plugins/chat/bot';
import type { ChatMessage } from './chatApi';
import { chatMessage, fakeChatServer, fakeSocketIo } from '../../test/support/chat';

jest.mock('socket.io-client', () => jest.requireActual('../../test/support/chat').fakeSocketIo);

/**
 * The support bot's own deposit answer (server/plugins/chat/bot.ts, as the server sends it) followed in the app:
 * a logged-in player's "how-to videos" link stays in the user area and the session survives (spec §4: a public
 * page ends it); a guest's goes to the public /howto.
 */

const player: PreloadedState = { session: { token: 'tok-1', remember: false, login: { status: 'loggedIn' } }, prefs: { ...initialPrefs, locale: 'en' } };
const guest: PreloadedState = { prefs: { ...initialPrefs, locale: 'en', guestId: 'g_1' } };

const depositHelp = (isGuest: boolean): ChatMessage[] =>
  botAnswer({ kind: 'postback', text: 'HELP_DEPOSIT', firstOfSession: false, locale: 'en', guest: isGuest }).messages.map((m, i) =>
    chatMessage(`bot-${i}`, { message: m.message, message_type: m.message_type, payload: m.payload as ChatMessage['payload'] }),
  );

const logouts: string[] = [];
beforeEach(() => {
  logouts.length = 0;
  serveUserArea();
  server.use(
    http.get('/api/lookup/howto', () => HttpResponse.json({ videos: [] })),
    http.get('/api/lookup/contact', () => HttpResponse.json({ contactText: '<p>Hi</p>', lineLink: '', lineName: '', lineQR: null })),
    http.post('/api/logout', ({ request }) => {
      logouts.push(request.headers.get('authorization') ?? '');
      return new HttpResponse(null, { status: 204 });
    }),
  );
});
afterEach(() => {
  fakeSocketIo.sockets.length = 0;
});

async function followHowtoLink(url: string, state: PreloadedState, messages: ChatMessage[]) {
  fakeChatServer({ prefix: null, messages });
  const user = userEvent.setup();
  const view = renderApp(url, { preloadedState: state });
  await user.click(await screen.findByRole('button', { name: 'Open chat' }));
  const panel = await screen.findByRole('dialog', { name: 'Chat with us' });
  const links = await within(panel).findAllByRole('link', { name: 'Watch the how-to videos' });
  await user.click(links[0]);
  return view;
}

test("a logged-in player following the bot's how-to link stays logged in, on /user/contact#howto with the videos", async () => {
  const { router, store } = await followHowtoLink('/user/home', player, depositHelp(false));
  await waitFor(() => expect(router.state.location.pathname + router.state.location.hash).toBe('/user/contact#howto'));
  const section = await screen.findByTestId('howto-section');
  expect(within(section).getByRole('heading', { name: 'How-to videos' })).toBeInTheDocument();
  expect(await within(section).findByTestId('howto-wallet')).toBeInTheDocument();
  expect(store.getState().session.token).toBe('tok-1');
  expect(logouts).toEqual([]);
});

test("a guest following the bot's how-to link goes to the public /howto", async () => {
  const { router } = await followHowtoLink('/contact', guest, depositHelp(true));
  await waitFor(() => expect(router.state.location.pathname).toBe('/howto'));
  expect(await screen.findByTestId('howto-wallet')).toBeInTheDocument();
});
