import { Suspense, type ReactNode } from 'react';
import { Provider } from 'react-redux';

import { BodyScrollLock } from '../components/BodyScrollLock';
import { LocaleSync } from './LocaleSync';
import type { AppStore, RootState } from './store';
import { Toaster } from './Toaster';

/** Store, language, scroll lock and toasts around the router. `serverState`: see AppRoot. */
export function AppProviders({ store, serverState, children }: { store: AppStore; serverState?: RootState; children: ReactNode }) {
  return (
    <Provider store={store} serverState={serverState}>
      <LocaleSync />
      <BodyScrollLock />
      <Suspense fallback={null}>{children}</Suspense>
      <Toaster />
    </Provider>
  );
}
