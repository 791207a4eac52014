import { useEffect } from 'react';

import { useAppSelector } from '../core/hooks';
import { selectAnyModalOpen } from '../core/modalSlice';

/** Body scrolling is disabled while any modal is open (spec §4). */
export function BodyScrollLock() {
  const locked = useAppSelector(selectAnyModalOpen);
  useEffect(() => {
    if (!locked) return;
    const previous = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    document.body.classList.add('modal-open');
    return () => {
      document.body.style.overflow = previous;
      document.body.classList.remove('modal-open');
    };
  }, [locked]);
  return null;
}
