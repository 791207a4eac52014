import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';

import { AppProviders } from '../app/AppProviders';
import { seedBootData } from '../app/bootData';
import { applyLocale, DEFAULT_LOCALE } from '../app/i18n';
import { BRAND_SLOT, type ScreenPrerender, type PrerenderVariant } from '../../shared/prerender';
import PublicLayout from '../app/layout/PublicLayout';
import { Root } from '../app/router';
import { makeStore } from '../app/store';
import LoginPage from '../features/session/LoginPage';
import { LOCALES, standardLanguageTag } from '../lib/locale';

/**
 * The login screen as HTML, rendered at build time (webpack's `prerender` configuration runs this in Node and
 * writes dist/prerender/login.json; docs/client.md "First screen"). The server puts the variant that matches the
 * request into index.html's root for GET /login, so the screen paints from the HTML alone, before any script has
 * arrived; the app then renders the same screen over it.
 *
 * The same tree the app renders for /login (Root > PublicLayout > LoginPage) without the guard, which the server
 * stands in for (it prerenders only while the site is active). One variant per language, demo mode and chat
 * switch; the operator's name and logo differ per deployment and go where `BRAND_SLOT` stands.
 */
export async function renderLoginScreens(): Promise<ScreenPrerender> {
  const variants: PrerenderVariant[] = [];
  // The market's language first: the server takes the first variant when the request names no language.
  for (const locale of [DEFAULT_LOCALE, ...LOCALES.filter((l) => l !== DEFAULT_LOCALE)]) {
    await applyLocale(locale);
    for (const demo of [false, true]) {
      for (const chat of [false, true]) {
        variants.push({ locale, lang: standardLanguageTag(locale), demo, chat, html: await renderLogin(demo, chat) });
      }
    }
  }
  return { slot: BRAND_SLOT, variants };
}

async function renderLogin(demo: boolean, chat: boolean): Promise<string> {
  const store = makeStore();
  seedBootData(store, {
    info: { name: BRAND_SLOT, website: '', demo },
    chat: { enableChatWidget: chat },
  });
  const routes = [{ element: <Root />, children: [{ element: <PublicLayout />, children: [{ path: 'login', element: <LoginPage /> }] }] }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/login'));
  if (context instanceof Response) throw new Error(`prerender: /login answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <AppProviders store={store}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppProviders>,
  );
  return standIn(html);
}

/**
 * The prerendered screen as a stand-in until the app replaces it: its controls disabled (nobody types into a field
 * that is about to be replaced; the app's own are enabled) and without test ids, so browser automation (the
 * end-to-end suites, the bench) finds only the app's elements.
 */
export function standIn(html: string): string {
  return html.replace(/ data-testid="[^"]*"/g, '').replace(/<(input|select|button|textarea)\b(?![^>]*\sdisabled)/g, '<$1 disabled=""');
}
