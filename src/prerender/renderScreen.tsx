import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider, type RouteObject } from 'react-router-dom';

import { AppRoot } from '../app/AppRoot';
import { seedBootData } from '../app/bootData';
import { applyLocale, currentLocale, DEFAULT_LOCALE } from '../core/i18n';
import { initialPrefs } from '../core/prefs';
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
 * `routes` rendered at `url` through react-router's static router, with a fresh store that knows the language, the
 * demo flag and the chat switch and names the operator `BRAND_SLOT` (the server fills it in): what the app's first
 * render draws before the stored state is read (start.tsx keeps that state for hydrating). `standIn`: made a stand-in
 * for the app to replace (see below); otherwise the app hydrates it, and it must be exactly the app's render.
 */
export async function renderRoute(url: string, routes: RouteObject[], demo: boolean, chat: boolean, { standIn: asStandIn = true } = {}): Promise<string> {
  const store = makeStore({ prefs: { ...initialPrefs, locale: currentLocale() } });
  seedBootData(store, {
    info: { name: BRAND_SLOT, website: '', demo },
    chat: { enableChatWidget: chat },
  });
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error(`prerender: ${url} answered ${context.status}`);
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <AppRoot store={store}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </AppRoot>,
  );
  return asStandIn ? standIn(html) : html;
}

/**
 * The prerendered screen as a stand-in until the app replaces it: its controls disabled (nobody types into a field
 * that is about to be replaced; the app's own are enabled) and without test ids, so browser automation (the
 * end-to-end suites, the bench) finds only the app's elements.
 */
export function standIn(html: string): string {
  return html.replace(/ data-testid="[^"]*"/g, '').replace(/<(input|select|button|textarea)\b(?![^>]*\sdisabled)/g, '<$1 disabled=""');
}
