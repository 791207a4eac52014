import { Suspense, type ReactNode } from 'react';
import { Provider } from 'react-redux';

import { BodyScrollLock } from '../components/BodyScrollLock';
import { LocaleSync } from './LocaleSync';
import type { AppStore } from './store';
import { Toaster } from './Toaster';

/** Store, language, scroll lock and toasts around the router. */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <LocaleSync />
      <BodyScrollLock />
      <Suspense fallback={null}>{children}</Suspense>
      <Toaster />
    </Provider>
  );
}
