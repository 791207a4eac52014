import { forwardRef, useId, type ReactNode } from 'react';

import { keepAmountCharacters } from '../../lib/amountInput';

interface Props {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  hint?: ReactNode;
  testId?: string;
}

/**
 * A baht amount: decimal keypad on phones, error line tied to the field for screen readers. Only digits, the two
 * marks and spaces are kept as typed; the field's rules read them in the player's language (lib/amountInput.ts).
 */
export const AmountField = forwardRef<HTMLInputElement, Props>(function AmountField({ label, value, onChange, error, hint, testId }, ref) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        ref={ref}
        id={id}
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(keepAmountCharacters(event.target.value))}
        aria-invalid={error ? true : undefined}
        aria-describedby={hint ? `${id}-hint ${id}-error` : `${id}-error`}
        data-testid={testId}
      />
      {hint && (
        <p id={`${id}-hint`} className="field__hint muted">
          {hint}
        </p>
      )}
      <p id={`${id}-error`} className="form__error" aria-live="polite">
        {error ?? ''}
      </p>
    </div>
  );
});
