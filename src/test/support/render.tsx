import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { persistStore } from 'redux-persist';

import { AppProviders } from '../../app/AppProviders';
import { setNavigator } from '../../core/navigation';
import { initialPrefs } from '../../core/prefs';
import { buildRoutes } from '../../app/router';
import { makeStore, type AppStore, type PreloadedState } from '../../app/store';

interface Options {
  preloadedState?: PreloadedState;
  /** The URL the memory router starts at. */
  route?: string;
  /** Run redux-persist as the app does (storage reads and writes). */
  persist?: boolean;
}

/** Tests read English unless they choose a language. */
function withDefaults(preloadedState: PreloadedState = {}): PreloadedState {
  return { prefs: { ...initialPrefs, locale: 'en' }, ...preloadedState };
}

function mount(store: AppStore, router: ReturnType<typeof createMemoryRouter>, persist: boolean) {
  setNavigator(
    (to, options) => void router.navigate(to, options),
    () => router.state.location.pathname + router.state.location.search,
  );
  const persistor = persist ? persistStore(store) : null;
  const view = render(
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, store, router, persistor, user: userEvent.setup() };
}

/** One component under the real providers and a fresh store from makeStore, at `route`. */
export function renderWithProviders(ui: ReactElement, { preloadedState, route = '/', persist = false }: Options = {}) {
  const store = makeStore(withDefaults(preloadedState));
  const router = createMemoryRouter([{ path: '*', element: ui }], { initialEntries: [route] });
  return mount(store, router, persist);
}

/** The whole app (every route, the guard, the layouts) at `route`. */
export function renderApp(route: string, { preloadedState, persist = false }: Omit<Options, 'route'> = {}) {
  const store = makeStore(withDefaults(preloadedState));
  const router = createMemoryRouter(buildRoutes(store), { initialEntries: [route] });
  return mount(store, router, persist);
}
