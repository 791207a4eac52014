import { lazy, Suspense, type ComponentType, type LazyExoticComponent } from 'react';

import { useAppDispatch, useAppSelector } from './hooks';
import { modalClosed, selectModalStack } from './modalSlice';

/** A modal that any screen may open by id (features do not import each other; the app wires them here). */
export type HostedModal = ComponentType<{ onClose: () => void }>;

/**
 * Modals opened by id from another feature's screen, e.g. home's deposit widget opening the deposit
 * feature's modal with `dispatch(modalOpened('deposit'))`. Each is its own lazy chunk.
 * A feature adds one line here for each modal it offers to others.
 */
export const modalRegistry: Record<string, LazyExoticComponent<HostedModal>> = {
  deposit: lazy(() => import(/* webpackChunkName: "modal-deposit" */ '../features/deposit/DepositModal')),
  slipHistory: lazy(() => import(/* webpackChunkName: "modal-slip-history" */ '../features/deposit/SlipHistoryModal')),
  refund: lazy(() => import(/* webpackChunkName: "modal-refund" */ '../features/refund/RefundModal')),
  invite: lazy(() => import(/* webpackChunkName: "modal-invite" */ '../features/invite/InviteModal')),
  spinWheel: lazy(() => import(/* webpackChunkName: "modal-spin-wheel" */ '../features/wheel/SpinWheelModal')),
};

/** Renders every registered modal on the stack, in stack order. */
export function ModalHost() {
  const stack = useAppSelector(selectModalStack);
  const dispatch = useAppDispatch();
  return (
    <>
      {stack
        .filter((id) => modalRegistry[id])
        .map((id) => {
          const Modal = modalRegistry[id];
          return (
            <Suspense key={id} fallback={null}>
              <Modal onClose={() => dispatch(modalClosed(id))} />
            </Suspense>
          );
        })}
    </>
  );
}
