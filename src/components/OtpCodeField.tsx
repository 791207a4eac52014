import { forwardRef } from 'react';

import { TextField } from './FormField';

interface OtpCodeFieldProps {
  label: string;
  value: string;
  /** The field's text with anything but digits taken out. */
  onCode: (code: string) => void;
  error: string | null;
  'data-testid': string;
}

/** The one-time code's field (registration and a forgotten password, spec §4): digits only, 6 at most, the phone's autofill. */
export const OtpCodeField = forwardRef<HTMLInputElement, OtpCodeFieldProps>(function OtpCodeField({ label, value, onCode, error, 'data-testid': testId }, ref) {
  return (
    <TextField
      ref={ref}
      label={label}
      name="otpCode"
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      value={value}
      onChange={(event) => onCode(event.target.value.replace(/\D/g, ''))}
      required
      error={error}
      data-testid={testId}
    />
  );
});
