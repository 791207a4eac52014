import { useEffect, useId, useRef, useState, type FormEvent } from 'react';

import { codeOf } from '../requestId';
import { SESSION_ENDED_CODES } from '../staffApi';
import { useStaffI18n } from '../i18n/I18n';
import { LanguageSelect } from '../i18n/LanguageSelect';
import { PageHeading } from '../shell/PageHeading';
import { useStaffSession } from '../session/Session';

type FormState = { status: 'editing'; error: string | null } | { status: 'submitting' };

/** Which step of the sign-in is shown: the password, or (an account with a second factor) the TOTP code. */
type Step = { step: 'password'; username: string; error: string | null } | { step: 'totp'; username: string; challenge: string };

/**
 * Sign-in (docs/staff.md "Second factor"): username and password (POST /api/staff/login); for an account with a
 * second factor, then the 6-digit code of an authenticator app (POST /api/staff/login/totp). Refusals
 * (WRONG_CREDENTIAL, WRONG_TOTP, REQUEST_LIMIT, ...) in an alert; an expired challenge goes back to the password.
 */
export function LoginPage({ ended }: { ended: boolean }) {
  const [step, setStep] = useState<Step>({ step: 'password', username: '', error: null });
  return (
    <main className="staff-login" id="staff-main">
      <div className="staff-login__top">
        <LanguageSelect />
      </div>
      {step.step === 'password' ? (
        <PasswordStep
          key="password"
          ended={ended}
          initialUsername={step.username}
          initialError={step.error}
          onChallenge={(username, challenge) => setStep({ step: 'totp', username, challenge })}
        />
      ) : (
        <TotpStep key={step.challenge} username={step.username} challenge={step.challenge} onBack={(error) => setStep({ step: 'password', username: step.username, error })} />
      )}
    </main>
  );
}

function PasswordStep({
  ended,
  initialUsername,
  initialError,
  onChallenge,
}: {
  ended: boolean;
  initialUsername: string;
  initialError: string | null;
  onChallenge: (username: string, challenge: string) => void;
}) {
  const { t, errorText } = useStaffI18n();
  const { signIn } = useStaffSession();
  const [state, setState] = useState<FormState>({ status: 'editing', error: initialError });
  const username = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const errorId = useId();

  useEffect(() => {
    // Back from the code step: the username is kept, the password is due again.
    if (initialUsername) password.current?.focus();
  }, [initialUsername]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.status === 'submitting') return;
    const u = username.current?.value.trim() ?? '';
    const p = password.current?.value ?? '';
    if (!u || !p) {
      setState({ status: 'editing', error: t('login.required') });
      (u ? password : username).current?.focus();
      return;
    }
    setState({ status: 'submitting' });
    try {
      const next = await signIn(u, p);
      if (next) onChallenge(u, next.challenge);
    } catch (err) {
      setState({ status: 'editing', error: errorText(codeOf(err)) });
      if (password.current) password.current.value = '';
      password.current?.focus();
    }
  };

  const error = state.status === 'editing' ? state.error : null;
  const busy = state.status === 'submitting';
  return (
    <form className="staff-card staff-login__form" onSubmit={submit} noValidate aria-describedby={error ? errorId : undefined}>
      <p className="staff-login__brand">{t('app.title')}</p>
      <PageHeading>{t('login.title')}</PageHeading>
      {ended && !error && (
        <p className="staff-alert staff-alert--info" role="status">
          {t('login.sessionEnded')}
        </p>
      )}
      {error && (
        <p className="staff-alert staff-alert--error" role="alert" id={errorId}>
          {error}
        </p>
      )}
      <div className="staff-field">
        <label htmlFor="staff-username">{t('login.username')}</label>
        <input
          ref={username}
          id="staff-username"
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          defaultValue={initialUsername}
          aria-invalid={Boolean(error)}
        />
      </div>
      <div className="staff-field">
        <label htmlFor="staff-password">{t('login.password')}</label>
        <input ref={password} id="staff-password" name="password" type="password" autoComplete="current-password" required aria-invalid={Boolean(error)} />
      </div>
      <button type="submit" className="staff-button staff-button--primary" disabled={busy} aria-busy={busy}>
        {busy ? t('login.submitting') : t('login.submit')}
      </button>
    </form>
  );
}

/** The second step: the code field takes the focus (its label and the intro are read with it). */
function TotpStep({ username, challenge, onBack }: { username: string; challenge: string; onBack: (error: string | null) => void }) {
  const { t, errorText } = useStaffI18n();
  const { signInTotp } = useStaffSession();
  const [state, setState] = useState<FormState>({ status: 'editing', error: null });
  const code = useRef<HTMLInputElement>(null);
  const errorId = useId();
  const introId = useId();

  useEffect(() => {
    code.current?.focus();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (state.status === 'submitting') return;
    const c = (code.current?.value ?? '').replace(/\s/g, '');
    if (!/^\d{6}$/.test(c)) {
      setState({ status: 'editing', error: t('totp.required') });
      code.current?.focus();
      return;
    }
    setState({ status: 'submitting' });
    try {
      await signInTotp(challenge, c);
    } catch (err) {
      const reason = codeOf(err);
      // The challenge lasts 5 minutes: past that (or refused), the password is asked again.
      if (SESSION_ENDED_CODES.has(reason)) {
        onBack(t('totp.expired'));
        return;
      }
      setState({ status: 'editing', error: errorText(reason) });
      if (code.current) code.current.value = '';
      code.current?.focus();
    }
  };

  const error = state.status === 'editing' ? state.error : null;
  const busy = state.status === 'submitting';
  return (
    <form className="staff-card staff-login__form" onSubmit={submit} noValidate aria-describedby={error ? errorId : undefined}>
      <p className="staff-login__brand">{t('app.title')}</p>
      <h1>{t('totp.title')}</h1>
      <p id={introId}>{t('totp.intro', { username })}</p>
      {error && (
        <p className="staff-alert staff-alert--error" role="alert" id={errorId}>
          {error}
        </p>
      )}
      <div className="staff-field">
        <label htmlFor="staff-totp-code">{t('totp.code')}</label>
        <input
          ref={code}
          id="staff-totp-code"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={6}
          spellCheck={false}
          required
          aria-describedby={error ? `${introId} ${errorId}` : introId}
          aria-invalid={Boolean(error)}
        />
      </div>
      <button type="submit" className="staff-button staff-button--primary" disabled={busy} aria-busy={busy}>
        {busy ? t('totp.submitting') : t('totp.submit')}
      </button>
      <button type="button" className="staff-button staff-button--quiet" onClick={() => onBack(null)} disabled={busy}>
        {t('totp.back')}
      </button>
    </form>
  );
}
