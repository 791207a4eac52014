import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';

import { useStaffI18n } from '../i18n/I18n';
import { codeOf } from '../requestId';

export const REASON_MAX = 500;

interface Props {
  /** What will happen, in a sentence: it names the group, so a screen reader reads it when the reason takes the focus. */
  question: string;
  reasonLabel: string;
  confirmLabel: string;
  busyLabel: string;
  danger?: boolean;
  /** Sends the decision; throws the call's StaffApiError on refusal (shown here in an alert). */
  onConfirm: (reason: string) => Promise<void>;
  /** Escape or Cancel (never while the call is in flight). */
  onCancel: () => void;
  /** Heard about a refusal, e.g. to refresh a list after REVIEW_DECIDED. */
  onRefused?: (code: string) => void;
}

/**
 * The confirmation step of a staff action (payments under review, payouts): says what will happen, asks for the
 * reason the audit log keeps (required, up to 500 characters), busy while the call runs, refusals in an alert.
 * The reason takes the focus when it opens.
 */
export function ConfirmAction({ question, reasonLabel, confirmLabel, busyLabel, danger, onConfirm, onCancel, onRefused }: Props) {
  const { t, errorText } = useStaffI18n();
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const box = useRef<HTMLTextAreaElement>(null);
  const questionId = useId();
  const reasonId = useId();
  const errorId = useId();
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    box.current?.focus();
    return () => {
      alive.current = false;
    };
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !busy) {
      e.preventDefault();
      onCancel();
    }
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const why = reason.trim();
    if (!why || why.length > REASON_MAX) {
      setError('REASON_REQUIRED');
      box.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onConfirm(why);
    } catch (err) {
      if (!alive.current) return;
      const code = codeOf(err);
      setBusy(false);
      setError(code);
      onRefused?.(code);
      // The buttons were disabled while busy: the focus goes back to the reason, to correct it or try again.
      requestAnimationFrame(() => box.current?.focus());
    }
  };

  return (
    <form className="bo-confirm" role="group" aria-labelledby={questionId} aria-busy={busy} onKeyDown={onKeyDown} onSubmit={(e) => void onSubmit(e)} noValidate>
      <p id={questionId} className="bo-confirm__question">
        {question}
      </p>
      <div className="staff-field">
        <label htmlFor={reasonId}>{reasonLabel}</label>
        <textarea
          id={reasonId}
          ref={box}
          rows={3}
          maxLength={REASON_MAX}
          required
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          readOnly={busy}
          aria-invalid={error === 'REASON_REQUIRED' ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </div>
      {error && (
        <p id={errorId} className="staff-alert staff-alert--error" role="alert">
          {errorText(error)}
        </p>
      )}
      <div className="bo-confirm__actions">
        <button type="submit" className={`staff-button ${danger ? 'staff-button--danger' : 'staff-button--primary'}`} disabled={busy} aria-busy={busy || undefined}>
          {busy ? busyLabel : confirmLabel}
        </button>
        <button type="button" className="staff-button" onClick={onCancel} disabled={busy}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
