import { Suspense, type ComponentType } from 'react';

import { useAppDispatch, useAppSelector } from '../core/hooks';
import type { ModalId } from '../core/modalIds';
import { modalClosed, selectModalStack } from '../core/modalSlice';
import { retryableLazy } from '../components/retryableLazy';

/** A modal that any screen may open by id (features do not import each other; the app wires them here). */
export type HostedModal = ComponentType<{ onClose: () => void }>;

/**
 * Modals opened by id from another feature's screen, e.g. home's deposit widget opening the deposit
 * feature's modal with `dispatch(modalOpened('deposit'))`. Each is its own lazy chunk, retried when it fails to
 * download, then shown as a "could not load" dialog with Try again (retryableLazy).
 * A feature adds one line here for each modal it offers to others.
 */
export const modalRegistry: Partial<Record<ModalId, HostedModal>> = {
  deposit: retryableLazy('deposit', () => import(/* webpackChunkName: "modal-deposit" */ '../features/deposit/DepositModal')),
  slipHistory: retryableLazy('slipHistory', () => import(/* webpackChunkName: "modal-slip-history" */ '../features/deposit/SlipHistoryModal')),
  refund: retryableLazy('refund', () => import(/* webpackChunkName: "modal-refund" */ '../features/refund/RefundModal')),
  invite: retryableLazy('invite', () => import(/* webpackChunkName: "modal-invite" */ '../features/invite/InviteModal')),
  spinWheel: retryableLazy('spinWheel', () => import(/* webpackChunkName: "modal-spin-wheel" */ '../features/wheel/SpinWheelModal')),
};

/** Renders every registered modal on the stack, in stack order. */
export function ModalHost() {
  const stack = useAppSelector(selectModalStack);
  const dispatch = useAppDispatch();
  return (
    <>
      {stack.flatMap((id) => {
        const Modal = modalRegistry[id];
        return Modal
          ? [
              <Suspense key={id} fallback={null}>
                <Modal onClose={() => dispatch(modalClosed(id))} />
              </Suspense>,
            ]
          : [];
      })}
    </>
  );
}
