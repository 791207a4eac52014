import { useId, useRef, useState, type FormEvent } from 'react';

import { StaffApiError } from '../api';
import { useStaffI18n } from '../i18n/I18n';
import { LanguageSelect } from '../i18n/LanguageSelect';
import { PageHeading } from '../shell/PageHeading';
import { useStaffSession } from '../session/Session';

type LoginState = { status: 'editing'; error: string | null } | { status: 'submitting' };

/** Username and password (POST /api/staff/login); refusals (WRONG_CREDENTIAL, REQUEST_LIMIT, ...) in an alert. */
export function LoginPage({ ended }: { ended: boolean }) {
  const { t, errorText } = useStaffI18n();
  const { signIn } = useStaffSession();
  const [state, setState] = useState<LoginState>({ status: 'editing', error: null });
  const username = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  const errorId = useId();

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
      await signIn(u, p);
    } catch (err) {
      setState({ status: 'editing', error: errorText(err instanceof StaffApiError ? err.code : 'GENERIC') });
      if (password.current) password.current.value = '';
      password.current?.focus();
    }
  };

  const error = state.status === 'editing' ? state.error : null;
  const busy = state.status === 'submitting';
  return (
    <main className="staff-login" id="staff-main">
      <div className="staff-login__top">
        <LanguageSelect />
      </div>
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
          <input ref={username} id="staff-username" name="username" autoComplete="username" autoCapitalize="none" spellCheck={false} required aria-invalid={Boolean(error)} />
        </div>
        <div className="staff-field">
          <label htmlFor="staff-password">{t('login.password')}</label>
          <input ref={password} id="staff-password" name="password" type="password" autoComplete="current-password" required aria-invalid={Boolean(error)} />
        </div>
        <button type="submit" className="staff-button staff-button--primary" disabled={busy} aria-busy={busy}>
          {busy ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
    </main>
  );
}
