import { StrictMode, type ReactNode } from 'react';

import { AppProviders } from './AppProviders';
import type { AppStore, RootState } from './store';

/**
 * The app's whole tree around its router, the same in the browser and in the build's prerender
 * (src/prerender/renderScreen.tsx): hydrating a prerendered screen needs both trees to have the same shape, since
 * React's `useId` values follow it. `after` is what only the browser renders after the app (start.tsx: the root
 * made usable once mounted); the prerender leaves its place empty. `serverState`: the store's state as the prerender
 * had it, which React reads while it hydrates (react-redux), so the first render matches the HTML whatever the
 * store holds by then; the components then render again with the store's own state.
 */
export function AppRoot({ store, serverState, after = null, children }: { store: AppStore; serverState?: RootState; after?: ReactNode; children: ReactNode }) {
  return (
    <StrictMode>
      <AppProviders store={store} serverState={serverState}>
        {children}
      </AppProviders>
      {after}
    </StrictMode>
  );
}
