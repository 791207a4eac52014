import { startTransition, useEffect, useState, type ReactNode } from 'react';

import type { AppStore, RootState } from './store';

/**
 * A view of `store` that shows `state` and never changes: dispatches go to the store itself (a thunk or a query
 * started there reads and changes the real state), but what the components read stays `state`, and nothing is told of
 * a change.
 */
export function frozenView(store: AppStore, state: RootState): AppStore {
  return { ...store, getState: () => state, subscribe: () => () => undefined };
}

/**
 * Hydration without a blocking render after it (docs/client.md "First screen"). The app hydrates a prerendered
 * screen against a frozen view of the store at the prerender's state, then hands the real store over in a transition.
 * With the real store under hydration (react-redux's `serverState`), every component whose selection differed from
 * the prerender's (the session, an answer already in) was told so right after hydration and drew again at once:
 * `useSyncExternalStore` renders a store's change synchronously, so that render was one long task. A new store in
 * the provider is a context change instead, which React renders in slices like the hydration itself.
 * `children` is given the store to render with and whether the real one is in.
 */
export function HandOver({ store, prerendered, children }: { store: AppStore; prerendered: RootState; children: (store: AppStore, handedOver: boolean) => ReactNode }) {
  const [current, setCurrent] = useState(() => frozenView(store, prerendered));
  useEffect(() => startTransition(() => setCurrent(store)), [store]);
  return children(current, current === store);
}
