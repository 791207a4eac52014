import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../../core/hooks';
import { selectLocale } from '../../../core/prefs';
import { OtpCodeField } from '../../../components/OtpCodeField';
import { useSendOtpMutation, useVerifyOtpMutation } from '../registerApi';
import { backRequested, type RegisterState } from '../registerSlice';
import { useFocusFirstInvalid } from '../useFocusFirstInvalid';
import { StepError } from './StepError';

/** Step 2: the SMS code, shown with its reference (only when OTP registration is on). */
export function OtpStep({ state }: { state: Extract<RegisterState, { step: 'otp' }> }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [verify] = useVerifyOtpMutation();
  const [send] = useSendOtpMutation();
  const locale = useAppSelector(selectLocale);
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const form = useRef<HTMLFormElement>(null);
  const refused = useFocusFirstInvalid(form);
  const busy = state.pending !== null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const otpCode = code.trim();
    setMissing(otpCode === '');
    if (otpCode === '') {
      refused();
      return;
    }
    void verify({ otpToken: state.otpToken, otpCode });
  };

  const resend = () => {
    setCode('');
    // A new code, in the player's language like the first (issue 12).
    void send({ phoneNumber: state.phone, lang: locale });
  };

  return (
    <form ref={form} className="form" onSubmit={onSubmit} noValidate data-testid="register-otp-form">
      <p className="register__note">{t('register.otpSent', { phone: state.phone })}</p>
      <p className="register__ref" data-testid="register-otp-ref">
        {t('register.otpRef', { ref: state.otpRef })}
      </p>
      <OtpCodeField
        label={t('register.otpCode')}
        value={code}
        onCode={(next) => {
          setCode(next);
          if (missing) setMissing(false);
        }}
        error={missing ? t('register.otpRequired') : null}
        data-testid="register-otp"
      />
      <StepError code={state.error} />
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy} data-testid="register-next">
        {busy ? t('register.working') : t('register.verify')}
      </button>
      <div className="register__actions register__actions--stack">
        <button type="button" className="button" onClick={() => dispatch(backRequested())} disabled={busy}>
          {t('register.changePhone')}
        </button>
        <button type="button" className="button" onClick={resend} disabled={busy} data-testid="register-otp-resend">
          {t('register.otpResend')}
        </button>
      </div>
    </form>
  );
}
