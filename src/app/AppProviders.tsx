import { SnackbarProvider } from 'notistack';
import { Suspense, type ReactNode } from 'react';
import { Provider } from 'react-redux';

import { BodyScrollLock } from '../components/BodyScrollLock';
import { LocaleSync } from './LocaleSync';
import { ERROR_TOAST_MS } from './notify';
import type { AppStore } from './store';

/** Store, toasts (notistack; each toast has role="alert"), language and scroll lock, around the router. */
export function AppProviders({ store, children }: { store: AppStore; children: ReactNode }) {
  return (
    <Provider store={store}>
      <SnackbarProvider maxSnack={3} autoHideDuration={ERROR_TOAST_MS} anchorOrigin={{ vertical: 'top', horizontal: 'center' }}>
        <LocaleSync />
        <BodyScrollLock />
        <Suspense fallback={null}>{children}</Suspense>
      </SnackbarProvider>
    </Provider>
  );
}
