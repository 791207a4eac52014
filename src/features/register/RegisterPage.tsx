import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';

import { MARKET } from '../../core/build';
import { useAppDispatch, useAppSelector } from '../../core/hooks';
import { inviteCodeReceived } from '../../core/prefs';
import { PageTitle } from '../../components/PageTitle';
import { useGetRegisterOtpLookupQuery } from './registerApi';
import { registrationLeft, registrationOpened, registrationSteps, selectRegister } from './registerSlice';
import { BankStep } from './steps/BankStep';
import { OtpStep } from './steps/OtpStep';
import { PhoneStep } from './steps/PhoneStep';
import { ProfileStep } from './steps/ProfileStep';
import './register.css';

/** Spec §9: the success message shows 2 s, then the login screen. */
export const REDIRECT_AFTER_REGISTER_MS = 2000;

/**
 * /register: the four steps of spec §2 over the registration machine (registerSlice). Focus moves to the
 * step's heading whenever the step changes, so keyboard and screen-reader users start at the new step.
 */
export default function RegisterPage({ market = MARKET }: { market?: typeof MARKET }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const state = useAppSelector(selectRegister);
  const otpSwitch = useGetRegisterOtpLookupQuery();
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(state.step);
  const code = params.get('code');

  useEffect(() => {
    dispatch(registrationOpened());
    return () => void dispatch(registrationLeft());
  }, [dispatch]);

  // The invite link's code is kept on the device (preference `code`) and shown read-only.
  useEffect(() => {
    const trimmed = code?.trim();
    if (trimmed) dispatch(inviteCodeReceived(trimmed.toUpperCase()));
  }, [code, dispatch]);

  useEffect(() => {
    if (shownStep.current === state.step) return;
    shownStep.current = state.step;
    heading.current?.focus();
  }, [state.step]);

  const registered = state.step === 'registered';
  // The success message is on the page (role=status, announced), not a notistack toast: the shared success
  // toast's white-on-green fails the colour-contrast check, and it would outlive the page onto /login.
  useEffect(() => {
    if (!registered) return undefined;
    const timer = setTimeout(() => navigate('/login', { replace: true }), REDIRECT_AFTER_REGISTER_MS);
    return () => clearTimeout(timer);
  }, [registered, navigate]);

  // Until the switch is known, count the OTP step only if this registration is on it.
  const steps = registrationSteps(otpSwitch.data?.registerOTP ?? state.step === 'otp');
  const position = registered ? steps.length : steps.indexOf(state.step) + 1;

  return (
    <section className="page page--narrow register">
      <PageTitle>{t('pages.register')}</PageTitle>
      {!registered && (
        <p className="register__progress muted" data-testid="register-progress">
          {t('register.progress', { step: position, total: steps.length })}
        </p>
      )}
      <h2 ref={heading} tabIndex={-1} className="register__heading" data-testid="register-step">
        {t(`register.steps.${state.step}`)}
      </h2>
      {state.step === 'phone' && <PhoneStep state={state} market={market} />}
      {state.step === 'otp' && <OtpStep state={state} />}
      {state.step === 'profile' && <ProfileStep state={state} />}
      {state.step === 'bank' && <BankStep state={state} market={market} />}
      {registered && (
        <div className="form register__done">
          <p role="status" data-testid="register-success">
            {t('register.success')}
          </p>
          <Link className="button button--primary" to="/login" replace>
            {t('register.goToLogin')}
          </Link>
        </div>
      )}
      {!registered && (
        <p className="register__login">
          {t('register.haveAccount')} <Link to="/login">{t('register.login')}</Link>
        </p>
      )}
    </section>
  );
}
