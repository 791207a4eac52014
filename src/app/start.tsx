import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { persistStore } from 'redux-persist';

import { AppProviders } from './AppProviders';
import { applyLocale } from './i18n';
import { createAppRouter } from './router';
import { makeStore } from './store';

/**
 * Boot order matters: the stored session and language are read first, then the active language's texts are
 * loaded, and only then does the router start, so the guard sees the stored token on the first navigation.
 */
export function startApp(container: HTMLElement): void {
  const store = makeStore();
  persistStore(store, null, () => {
    void applyLocale(store.getState().prefs.locale).finally(() => {
      const router = createAppRouter(store);
      createRoot(container).render(
        <StrictMode>
          <AppProviders store={store}>
            <RouterProvider router={router} />
          </AppProviders>
        </StrictMode>,
      );
    });
  });
}
