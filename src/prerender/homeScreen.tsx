import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';

import { AppProviders } from '../app/AppProviders';
import { seedBootData } from '../app/bootData';
import { applyLocale, DEFAULT_LOCALE, loadUserTexts } from '../app/i18n';
import { BRAND_SLOT, type PrerenderVariant, type ScreenPrerender } from '../../shared/prerender';
import UserLayout from '../app/layout/UserLayout';
import { Root } from '../app/router';
import { makeStore } from '../app/store';
import HomePage from '../features/wallet/HomePage';
import { LOCALES, standardLanguageTag } from '../lib/locale';
import { standIn } from './loginScreen';

/**
 * The player's home as HTML while its wallet loads, rendered at build time like the login screen (loginScreen.tsx;
 * docs/client.md "First screen"): Root > UserLayout > HomePage for /user/home with an empty API cache, which is what
 * the app's own first render of the page shows (the balance as '…', the widgets, no carousels yet). The server puts
 * the matching variant into the home page for GET /user/home, and the page's loader shows it only when a session is
 * stored (src/app/firstPaint.ts); the app then renders the same screen over it and fills it in.
 */
export async function renderHomeScreens(): Promise<ScreenPrerender> {
  const variants: PrerenderVariant[] = [];
  for (const locale of [DEFAULT_LOCALE, ...LOCALES.filter((l) => l !== DEFAULT_LOCALE)]) {
    await applyLocale(locale);
    await loadUserTexts();
    for (const demo of [false, true]) {
      for (const chat of [false, true]) {
        variants.push({ locale, lang: standardLanguageTag(locale), demo, chat, html: await renderHome(demo, chat) });
      }
    }
  }
  return { slot: BRAND_SLOT, variants };
}

async function renderHome(demo: boolean, chat: boolean): Promise<string> {
  const store = makeStore();
  seedBootData(store, {
    info: { name: BRAND_SLOT, website: '', demo },
    chat: { enableChatWidget: chat },
  });
  const routes = [{ element: <Root />, children: [{ path: 'user', element: <UserLayout />, children: [{ path: 'home', element: <HomePage /> }] }] }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/user/home'));
  if (context instanceof Response) throw new Error(`prerender: /user/home answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <AppProviders store={store}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
  return standIn(html);
}
