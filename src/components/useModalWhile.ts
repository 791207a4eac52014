import { useEffect } from 'react';

import { useAppDispatch } from '../core/hooks';
import type { ModalId } from '../core/modalIds';
import { modalClosed, modalOpened } from '../core/modalSlice';

/**
 * Keeps modal `id` on the modal stack while `open` is true, for modals whose open state is a flow's state
 * (a confirm step, a search result) rather than the stack itself: the stack still turns body scrolling off.
 */
export function useModalWhile(id: ModalId, open: boolean): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (!open) return;
    dispatch(modalOpened(id));
    return () => void dispatch(modalClosed(id));
  }, [dispatch, id, open]);
}
