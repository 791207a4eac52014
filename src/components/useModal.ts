import { useCallback } from 'react';

import { useAppDispatch, useAppSelector } from '../core/hooks';
import type { ModalId } from '../core/modalIds';
import { modalClosed, modalOpened, selectIsModalOpen } from '../core/modalSlice';

/** Open state of one modal in the modal stack, with events to open and close it. */
export function useModal(id: ModalId) {
  const dispatch = useAppDispatch();
  const isOpen = useAppSelector((state) => selectIsModalOpen(state, id));
  const open = useCallback(() => dispatch(modalOpened(id)), [dispatch, id]);
  const close = useCallback(() => dispatch(modalClosed(id)), [dispatch, id]);
  return { isOpen, open, close };
}
