import { closeSnackbar, enqueueSnackbar, SnackbarProvider, type SnackbarKey } from 'notistack';
import { useEffect } from 'react';

import { connectToaster, ERROR_TOAST_MS } from '../core/notify';

/** notistack's container (each toast has role="alert", so screen readers announce it). */
export default function SnackbarHost() {
  // Child effects run first: the provider below is mounted when this connects.
  useEffect(
    () =>
      connectToaster((toast) =>
        enqueueSnackbar(toast.message, {
          variant: toast.variant,
          autoHideDuration: toast.autoHideDuration,
          preventDuplicate: true,
          persist: toast.persist,
          action: toast.action ? (key: SnackbarKey) => <ToastAction toastKey={key} {...toast.action!} /> : undefined,
        }),
      ),
    [],
  );
  return <SnackbarProvider maxSnack={3} autoHideDuration={ERROR_TOAST_MS} anchorOrigin={{ vertical: 'top', horizontal: 'center' }} />;
}

function ToastAction({ toastKey, label, onAction }: { toastKey: SnackbarKey; label: string; onAction: () => void }) {
  return (
    <button
      type="button"
      className="toast-action"
      onClick={() => {
        closeSnackbar(toastKey);
        onAction();
      }}
    >
      {label}
    </button>
  );
}
