import { forwardRef, useId, type InputHTMLAttributes, type ReactNode, type SelectHTMLAttributes } from 'react';

import './forms.css';

interface Described {
  label: string;
  /** A field error (already translated): marks the control invalid and describes it. */
  error?: string | null;
  /** A hint that always describes the control. */
  hint?: string;
}

/** The error and hint ids that describe a control, errors first so they are read first. */
function describedBy(error: string | null | undefined, errorId: string, hint: string | undefined, hintId: string) {
  return [error ? errorId : null, hint ? hintId : null].filter(Boolean).join(' ') || undefined;
}

function Messages({ error, errorId, hint, hintId }: { error?: string | null; errorId: string; hint?: string; hintId: string }) {
  return (
    <>
      {hint && (
        <p id={hintId} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="field__error" data-testid="field-error">
          {error}
        </p>
      )}
    </>
  );
}

/** A labelled input whose error sets aria-invalid and is tied to it with aria-describedby. */
export const TextField = forwardRef<HTMLInputElement, Described & InputHTMLAttributes<HTMLInputElement>>(function TextField(
  { label, error, hint, id, ...input },
  ref,
) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const hintId = `${inputId}-hint`;
  return (
    <div className="field">
      <label htmlFor={inputId}>{label}</label>
      <input
        ref={ref}
        id={inputId}
        type="text"
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(error, errorId, hint, hintId)}
      />
      <Messages error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </div>
  );
});

/** A labelled select with the same error wiring as TextField. */
export const SelectField = forwardRef<
  HTMLSelectElement,
  Described & SelectHTMLAttributes<HTMLSelectElement> & { children: ReactNode; /** Shown before the select (e.g. the chosen bank's mark). */ adornment?: ReactNode }
>(function SelectField({ label, error, hint, id, children, adornment, ...select }, ref) {
  const autoId = useId();
  const selectId = id ?? autoId;
  const errorId = `${selectId}-error`;
  const hintId = `${selectId}-hint`;
  const control = (
    <select ref={ref} id={selectId} {...select} aria-invalid={error ? true : undefined} aria-describedby={describedBy(error, errorId, hint, hintId)}>
      {children}
    </select>
  );
  return (
    <div className="field">
      <label htmlFor={selectId}>{label}</label>
      {/* Always wrapped: an adornment that comes and goes must not remount the select (focus stays on it). */}
      <div className="field__control">
        {adornment}
        {control}
      </div>
      <Messages error={error} errorId={errorId} hint={hint} hintId={hintId} />
    </div>
  );
});
