import { StrictMode, type ReactNode } from 'react';

import { AppProviders } from './AppProviders';
import type { AppStore } from './store';

/**
 * The app's whole tree around its router, the same in the browser and in the build's prerender
 * (src/prerender/renderScreen.tsx): hydrating a prerendered screen needs both trees to have the same shape, since
 * React's `useId` values follow it. `after` is what only the browser renders after the app (start.tsx: the root
 * made usable once mounted); the prerender leaves its place empty. A hydrating browser gives a frozen view of the
 * store first (handover.tsx), so the first render matches the HTML whatever the store holds by then.
 */
export function AppRoot({ store, after = null, children }: { store: AppStore; after?: ReactNode; children: ReactNode }) {
  return (
    <StrictMode>
      <AppProviders store={store}>
        {children}
      </AppProviders>
      {after}
    </StrictMode>
  );
}
