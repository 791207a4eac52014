import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { Market } from '../../../core/build';
import { useAppDispatch, useAppSelector } from '../../../core/hooks';
import { selectLocale } from '../../../core/prefs';
import { TextField } from '../../../components/FormField';
import { phoneSubmitted, type RegisterState } from '../registerSlice';
import { phoneError } from '../registerRules';
import { useFocusFirstInvalid } from '../useFocusFirstInvalid';
import { StepError } from './StepError';

/** Step 1: the phone number (the username), 10 digits outside the Lao build. */
export function PhoneStep({ state, market }: { state: Extract<RegisterState, { step: 'phone' }>; market: Market }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
  const [phone, setPhone] = useState(state.phone);
  const [error, setError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const refused = useFocusFirstInvalid(form);
  const busy = state.pending !== null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const problem = phoneError(phone, market);
    setError(problem);
    if (problem) {
      refused();
      return;
    }
    // The OTP SMS is written in the player's language (issue 12).
    void dispatch(phoneSubmitted({ phone: phone.trim(), lang: locale }));
  };

  return (
    <form ref={form} className="form" onSubmit={onSubmit} noValidate data-testid="register-phone-form">
      <TextField
        label={t('register.phone')}
        name="username"
        type="tel"
        inputMode="numeric"
        autoComplete="tel-national"
        value={phone}
        onChange={(event) => {
          setPhone(event.target.value);
          if (error) setError(null);
        }}
        maxLength={market === 'lao' ? 15 : undefined}
        required
        hint={t(market === 'lao' ? 'register.phoneHintLao' : 'register.phoneHint')}
        error={error ? t(error) : null}
        data-testid="register-phone"
      />
      <StepError code={state.error} />
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy} data-testid="register-next">
        {busy ? t('register.working') : t('register.next')}
      </button>
    </form>
  );
}
