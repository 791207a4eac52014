import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';

import { safeNextPath } from '../../core/navigation';
import { useAppSelector } from '../../core/hooks';
import { errorText } from '../../core/notify';
import { LanguageSwitcher } from '../../components/LanguageSwitcher';
import { PageTitle } from '../../components/PageTitle';
import { useLoginMutation } from './sessionApi';
import { selectLoginError, selectLoginStatus, selectSessionExpired } from './sessionSlice';

/** /login: phone and password, an error line, remember-me, links to a forgotten password and to register, the language dropdown. */
export default function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [login] = useLoginMutation();
  const status = useAppSelector(selectLoginStatus);
  const serverError = useAppSelector(selectLoginError);
  const expired = useAppSelector(selectSessionExpired);
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [missing, setMissing] = useState(false);
  const errorId = useId();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const phone = username.trim();
    if (!phone || !password) {
      setMissing(true);
      return;
    }
    setMissing(false);
    const result = await login({ username: phone, password, remember });
    if ('data' in result) navigate(safeNextPath(params.get('next')), { replace: true });
  };

  const error = missing ? t('login.required') : serverError ? errorText(serverError) : '';
  const submitting = status === 'submitting';

  return (
    <section className="page page--narrow login">
      <div className="login__header">
        <PageTitle>{t('login.title')}</PageTitle>
        <LanguageSwitcher />
      </div>
      {expired && (
        <p className="login__notice" role="status" data-testid="session-expired">
          {t('login.sessionExpired')}
        </p>
      )}
      <form className="form" onSubmit={onSubmit} noValidate aria-describedby={errorId}>
        <div className="field">
          <label htmlFor="login-username">{t('login.phone')}</label>
          <input
            id="login-username"
            name="username"
            type="tel"
            inputMode="numeric"
            autoComplete="username"
            value={username}
            onChange={(event) => setUsername(event.target.value)}
            data-testid="login-phone"
            aria-invalid={error ? true : undefined}
          />
        </div>
        <div className="field">
          <label htmlFor="login-password">{t('login.password')}</label>
          <input
            id="login-password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            data-testid="login-password"
            aria-invalid={error ? true : undefined}
          />
        </div>
        <div className="field field--inline">
          <input
            id="login-remember"
            name="remember"
            type="checkbox"
            data-testid="login-remember"
            checked={remember}
            onChange={(event) => setRemember(event.target.checked)}
          />
          <label htmlFor="login-remember">{t('login.remember')}</label>
        </div>
        <p className="login__forgot">
          <Link to="/forgot" data-testid="login-forgot">
            {t('login.forgot')}
          </Link>
        </p>
        <p id={errorId} className="form__error" role="alert" data-testid="login-error">
          {error}
        </p>
        <button type="submit" className="button button--primary" data-testid="login-submit" disabled={submitting} aria-busy={submitting}>
          {submitting ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
      <p className="login__register">
        {t('login.noAccount')} <Link to="/register">{t('login.register')}</Link>
      </p>
    </section>
  );
}
