import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';

import { useAppDispatch } from '../core/hooks';
import type { ModalId } from '../core/modalIds';
import { modalClosed } from '../core/modalSlice';
import { CloseIcon } from './icons';

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

interface ModalProps {
  /** The id this modal has in the modal stack (core/modalIds.ts). */
  id: ModalId;
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  /**
   * false: a decision the player must take with the dialog's own buttons (the reality check): no close button,
   * Escape and the backdrop do nothing. Default true.
   */
  dismissible?: boolean;
  /** 'alertdialog' for an interruption that needs an answer; default 'dialog'. */
  role?: 'dialog' | 'alertdialog';
}

/**
 * An accessible dialog: labelled by its title, focus moves in and stays in (Tab wraps), Escape and the
 * backdrop close it, focus returns to where it was. Render it only while its id is in the modal stack.
 */
export function Modal({ id, title, onClose, children, dismissible = true, role = 'dialog' }: ModalProps) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const dialog = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = dialog.current?.querySelector<HTMLElement>(FOCUSABLE);
    (first ?? dialog.current)?.focus();
    return () => {
      previous?.focus();
    };
  }, []);

  // Leaving the screen that owns the modal (logout, navigation) takes it off the stack.
  useEffect(() => () => void dispatch(modalClosed(id)), [dispatch, id]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.stopPropagation();
      if (dismissible) onClose();
      return;
    }
    if (event.key !== 'Tab' || !dialog.current) return;
    const items = Array.from(dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE));
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    if (event.shiftKey && (document.activeElement === first || document.activeElement === dialog.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className="modal-backdrop" onMouseDown={(event) => dismissible && event.target === event.currentTarget && onClose()}>
      <div
        ref={dialog}
        className="modal"
        role={role}
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        onKeyDown={onKeyDown}
        data-testid={`modal-${id}`}
      >
        <div className="modal__header">
          <h2 id={titleId} className="modal__title">
            {title}
          </h2>
          {dismissible && (
            <button type="button" className="icon-button" onClick={onClose} aria-label={t('common.close')}>
              <CloseIcon />
            </button>
          )}
        </div>
        <div className="modal__body">{children}</div>
      </div>
    </div>,
    document.body,
  );
}
