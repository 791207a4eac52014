import { lazy, Suspense } from 'react';

import { useToastsRequested } from '../core/notify';

const SnackbarHost = lazy(() => import(/* webpackChunkName: "toasts" */ './SnackbarHost'));

/** Mounts notistack when the first toast is requested. */
export function Toaster() {
  const requested = useToastsRequested();
  return requested ? (
    <Suspense fallback={null}>
      <SnackbarHost />
    </Suspense>
  ) : null;
}
