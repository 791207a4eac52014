import type { ScreenPrerender } from '../../shared/prerender';
import { loadUserTexts } from '../core/i18n';
import UserLayout from '../app/layout/UserLayout';
import { Root } from '../app/router';
import HomePage from '../features/wallet/HomePage';
import { renderRoute, renderVariants } from './renderScreen';

/** The path the home's prerender is for (and hydrated at). */
export const HOME_PATH = '/user/home';

/**
 * The player's home as HTML while its wallet loads, rendered at build time like the login screen (loginScreen.tsx;
 * docs/client.md "First screen"): Root > UserLayout > HomePage for /user/home with an empty API cache, which is what
 * the app's own first render of the page shows (the balance as '…', the widgets, no carousels yet). The server puts
 * the matching variant into the home page for GET /user/home, and the page's loader shows it only when a session is
 * stored (src/app/firstPaint.ts); the app then hydrates it (keeps its elements, start.tsx) and fills it in. So it is
 * not a stand-in: the app's own render, test ids and enabled controls included (the root stays inert until then).
 */
export async function renderHomeScreens(): Promise<ScreenPrerender> {
  const routes = [{ element: <Root />, children: [{ path: 'user', element: <UserLayout />, children: [{ path: 'home', element: <HomePage /> }] }] }];
  const screens = await renderVariants((demo, chat) => renderRoute(HOME_PATH, routes, demo, chat, { standIn: false }), loadUserTexts);
  return { ...screens, hydratePath: HOME_PATH };
}
