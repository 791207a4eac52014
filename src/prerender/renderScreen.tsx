import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router-dom';

import { AppProviders } from '../app/AppProviders';
import { seedBootData } from '../app/bootData';
import { applyLocale, DEFAULT_LOCALE } from '../app/i18n';
import { BRAND_SLOT, type PrerenderVariant, type ScreenPrerender } from '../../shared/prerender';
import { makeStore } from '../app/store';
import { LOCALES, standardLanguageTag, type Locale } from '../lib/locale';

/**
 * A screen for every language, demo mode and chat switch (what the server picks a variant by), the market's
 * language first: the server takes the first variant when the request names no language. `texts` loads what else
 * the screen's language needs once it is applied (the player's area's texts).
 */
export async function renderVariants(render: (demo: boolean, chat: boolean) => Promise<string>, texts?: () => Promise<void>): Promise<ScreenPrerender> {
  const variants: PrerenderVariant[] = [];
  for (const locale of [DEFAULT_LOCALE, ...LOCALES.filter((l) => l !== DEFAULT_LOCALE)] as Locale[]) {
    await applyLocale(locale);
    await texts?.();
    for (const demo of [false, true]) {
      for (const chat of [false, true]) {
        variants.push({ locale, lang: standardLanguageTag(locale), demo, chat, html: await render(demo, chat) });
      }
    }
  }
  return { slot: BRAND_SLOT, variants };
}

/**
 * `routes` rendered at `url` through react-router's static router, with a fresh store that knows the demo flag and
 * the chat switch and names the operator `BRAND_SLOT` (the server fills it in), as a stand-in.
 */
export async function renderRoute(url: string, routes: RouteObject[], demo: boolean, chat: boolean): Promise<string> {
  const store = makeStore();
  seedBootData(store, {
    info: { name: BRAND_SLOT, website: '', demo },
    chat: { enableChatWidget: chat },
  });
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error(`prerender: ${url} answered ${context.status}`);
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
