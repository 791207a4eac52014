import { enqueueSnackbar, SnackbarProvider } from 'notistack';
import { useEffect } from 'react';

import { connectToaster, ERROR_TOAST_MS } from './notify';

/** notistack's container (each toast has role="alert", so screen readers announce it). */
export default function SnackbarHost() {
  // Child effects run first: the provider below is mounted when this connects.
  useEffect(
    () =>
      connectToaster((toast) =>
        enqueueSnackbar(toast.message, { variant: toast.variant, autoHideDuration: toast.autoHideDuration, preventDuplicate: true }),
      ),
    [],
  );
  return <SnackbarProvider maxSnack={3} autoHideDuration={ERROR_TOAST_MS} anchorOrigin={{ vertical: 'top', horizontal: 'center' }} />;
}
