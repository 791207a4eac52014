import type { ScreenPrerender } from '../../shared/prerender';
import PublicLayout from '../app/layout/PublicLayout';
import { Root } from '../app/router';
import LoginPage from '../features/session/LoginPage';
import { renderRoute, renderVariants } from './renderScreen';

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
export function renderLoginScreens(): Promise<ScreenPrerender> {
  const routes = [{ element: <Root />, children: [{ element: <PublicLayout />, children: [{ path: 'login', element: <LoginPage /> }] }] }];
  return renderVariants((demo, chat) => renderRoute('/login', routes, demo, chat));
}
