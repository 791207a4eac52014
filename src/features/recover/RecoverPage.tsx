import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { useGetSiteInfoQuery } from '../../core/lookupApi';
import { errorText } from '../../core/notify';
import { selectLocale } from '../../core/prefs';
import { TextField } from '../../components/FormField';
import { OtpCodeField } from '../../components/OtpCodeField';
import { PageTitle } from '../../components/PageTitle';
import { useRequestPasswordResetMutation, useResetPasswordMutation, useVerifyResetCodeMutation } from './recoverApi';
import { backRequested, recoveryLeft, recoveryOpened, type RecoverState } from './recoverSlice';
import { selectRecover } from './recoverStore';
import './recover.css';

/** The server's answer for the step, translated; announced when it appears (role=alert). */
function StepError({ code, min }: { code: string | null; min?: number }) {
  return (
    <p className="form__error" role="alert" data-testid="recover-error">
      {code ? errorText(code, { min }) : ''}
    </p>
  );
}

function PhoneStep({ state }: { state: Extract<RecoverState, { step: 'phone' }> }) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const [send] = useRequestPasswordResetMutation();
  const [phone, setPhone] = useState(state.phone);
  const [missing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const busy = state.pending !== null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const phoneNumber = phone.trim();
    setMissing(phoneNumber === '');
    if (phoneNumber === '') {
      input.current?.focus();
      return;
    }
    void send({ phoneNumber, lang: locale });
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate data-testid="recover-phone-form">
      <p>{t('recover.phoneIntro')}</p>
      <TextField
        ref={input}
        label={t('recover.phone')}
        name="phone"
        type="tel"
        inputMode="numeric"
        autoComplete="username"
        value={phone}
        onChange={(event) => {
          setPhone(event.target.value);
          if (missing) setMissing(false);
        }}
        required
        error={missing ? t('recover.phoneRequired') : null}
        data-testid="recover-phone"
      />
      <StepError code={state.error} />
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy} data-testid="recover-send">
        {busy ? t('recover.working') : t('recover.sendCode')}
      </button>
    </form>
  );
}

function CodeStep({ state }: { state: Extract<RecoverState, { step: 'code' }> }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const locale = useAppSelector(selectLocale);
  const [verify] = useVerifyResetCodeMutation();
  const [send] = useRequestPasswordResetMutation();
  const [code, setCode] = useState('');
  const [missing, setMissing] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const busy = state.pending !== null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const otpCode = code.trim();
    setMissing(otpCode === '');
    if (otpCode === '') {
      input.current?.focus();
      return;
    }
    void verify({ otpToken: state.otpToken, otpCode });
  };

  const resend = () => {
    setCode('');
    void send({ phoneNumber: state.phone, lang: locale });
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate data-testid="recover-code-form">
      {/* Worded for any phone: the server's answer does not say whether the number has an account. */}
      <p>{t('recover.codeSent', { phone: state.phone })}</p>
      <p data-testid="recover-ref">{t('recover.ref', { ref: state.otpRef })}</p>
      <OtpCodeField
        ref={input}
        label={t('recover.code')}
        value={code}
        onCode={(next) => {
          setCode(next);
          if (missing) setMissing(false);
        }}
        error={missing ? t('recover.codeRequired') : null}
        data-testid="recover-code"
      />
      <StepError code={state.error} />
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy} data-testid="recover-verify">
        {busy ? t('recover.working') : t('recover.verify')}
      </button>
      <div className="recover__actions">
        <button type="button" className="button" onClick={() => dispatch(backRequested())} disabled={busy}>
          {t('recover.changePhone')}
        </button>
        <button type="button" className="button" onClick={resend} disabled={busy} data-testid="recover-resend">
          {t('recover.resend')}
        </button>
      </div>
    </form>
  );
}

function PasswordStep({ state }: { state: Extract<RecoverState, { step: 'password' }> }) {
  const { t } = useTranslation();
  const [reset] = useResetPasswordMutation();
  // The server's rule, named under the field before typing (issue 12), and in its PASSWORD_TOO_SHORT refusal.
  const min = useGetSiteInfoQuery().data?.passwordMinLength;
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [problem, setProblem] = useState<'missing' | 'notEqual' | null>(null);
  const first = useRef<HTMLInputElement>(null);
  const second = useRef<HTMLInputElement>(null);
  const busy = state.pending !== null;

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    if (password === '') {
      setProblem('missing');
      first.current?.focus();
      return;
    }
    if (password !== confirm) {
      setProblem('notEqual');
      second.current?.focus();
      return;
    }
    setProblem(null);
    void reset({ otpToken: state.otpToken, newPassword: password });
  };

  return (
    <form className="form" onSubmit={onSubmit} noValidate data-testid="recover-password-form">
      <TextField
        ref={first}
        label={t('recover.newPassword')}
        name="newPassword"
        type="password"
        autoComplete="new-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
        required
        hint={min !== undefined ? t('recover.passwordRule', { min }) : undefined}
        error={problem === 'missing' ? t('recover.passwordRequired') : null}
        data-testid="recover-new-password"
      />
      <TextField
        ref={second}
        label={t('recover.confirmPassword')}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={(event) => {
          setConfirm(event.target.value);
          if (problem === 'notEqual') setProblem(null);
        }}
        required
        error={problem === 'notEqual' ? t('recover.notEqual') : null}
        data-testid="recover-confirm-password"
      />
      <StepError code={state.error} min={min} />
      <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy} data-testid="recover-save">
        {busy ? t('recover.working') : t('recover.save')}
      </button>
    </form>
  );
}

/**
 * /forgot (issue 40 item 4): the phone, the SMS code, a new password, over the recovery machine (recoverSlice). Focus
 * moves to the step's heading whenever the step changes, so keyboard and screen-reader users start at the new step.
 */
export default function RecoverPage() {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const state = useAppSelector(selectRecover);
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(state.step);

  useEffect(() => {
    dispatch(recoveryOpened());
    return () => void dispatch(recoveryLeft());
  }, [dispatch]);

  useEffect(() => {
    if (shownStep.current === state.step) return;
    shownStep.current = state.step;
    heading.current?.focus();
  }, [state.step]);

  return (
    <section className="page page--narrow recover">
      <PageTitle>{t('recover.title')}</PageTitle>
      <h2 ref={heading} tabIndex={-1} data-testid="recover-step">
        {t(`recover.steps.${state.step}`)}
      </h2>
      {state.step === 'phone' && <PhoneStep state={state} />}
      {state.step === 'code' && <CodeStep state={state} />}
      {state.step === 'password' && <PasswordStep state={state} />}
      {state.step === 'done' && (
        <div className="form">
          <p role="status" data-testid="recover-done">
            {t('recover.done')}
          </p>
          <Link className="button button--primary" to="/login" replace>
            {t('recover.goToLogin')}
          </Link>
        </div>
      )}
      {state.step !== 'done' && (
        <p>
          <Link to="/login">{t('recover.backToLogin')}</Link>
        </p>
      )}
    </section>
  );
}
