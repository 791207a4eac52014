import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { renderApp } from '../test/support/render';
import { server } from '../test/support/server';
import { readBootData, seedBootData, takeBootActive } from './bootData';
import { makeStore } from './store';

const page = (json: string) => {
  const meta = document.createElement('meta');
  meta.name = 'boot-data';
  meta.content = json;
  document.head.replaceChildren(meta);
  return document;
};

describe('boot data (the lookups the server embeds in the page)', () => {
  afterEach(() => {
    document.head.innerHTML = '';
    takeBootActive();
  });

  it('reads the JSON the server put in the page, and nothing from a page without it or with garbage', () => {
    expect(readBootData(page('{"chat":{"enableChatWidget":true}}'))).toEqual({ chat: { enableChatWidget: true } });
    expect(readBootData(page('{not json'))).toEqual({});
    document.head.innerHTML = '';
    expect(readBootData(document)).toEqual({});
  });

  it('puts the site info and the chat switch in the API cache, so the first render needs no request', () => {
    const store = makeStore();
    const info = { name: 'Op', website: 'https://op.example', demo: true };
    seedBootData(store, { info, chat: { enableChatWidget: true } });
    const queries = Object.values(store.getState().api.queries);
    expect(queries.map((q) => [q?.endpointName, q?.status, q?.data])).toEqual(
      expect.arrayContaining([
        ['getSiteInfo', 'fulfilled', info],
        ['getChatWidgetEnabled', 'fulfilled', { enableChatWidget: true }],
      ]),
    );
  });

  it('shows the demo banner and the operator name on the first render, before any lookup answers', async () => {
    let infoAsked = 0;
    server.use(
      http.get('/api/lookup/info', () => {
        infoAsked += 1;
        return HttpResponse.json({ name: 'Late', website: 'w', demo: false });
      }),
    );
    // renderApp builds its own store: hand it the API state of a store seeded as startApp seeds its own.
    const seeded = makeStore();
    seedBootData(seeded, { info: { name: 'Op Wallet', website: 'https://op.example', demo: true } });
    renderApp('/login', { preloadedState: { api: seeded.getState().api } as never });
    expect(await screen.findByRole('heading', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByTestId('demo-banner')).toBeInTheDocument();
    expect(screen.getByTestId('brand')).toHaveTextContent('Op Wallet');
    expect(infoAsked).toBe(0);
  });

  it('answers the first navigation guard from the page, once; later navigations ask the server', async () => {
    let activeAsked = 0;
    server.use(
      http.get('/api/lookup/active', () => {
        activeAsked += 1;
        return HttpResponse.json({ terminated: null });
      }),
    );
    seedBootData(makeStore(), { active: { terminated: 'gone' } });
    const { router } = renderApp('/login');
    await screen.findByTestId('page-title');
    // The server would say "active": the page's "gone" decided the first navigation; the redirect's own asked.
    expect(router.state.location.pathname).toBe('/terminated');
    expect(activeAsked).toBe(1);
    expect(takeBootActive()).toBeUndefined();
  });
});
