import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppDispatch, useAppSelector } from '../../../core/hooks';
import { useGetSiteInfoQuery } from '../../../core/lookupApi';
import { selectInviteCode } from '../../../core/prefs';
import { SelectField, TextField } from '../../../components/FormField';
import { useGetSourcesLookupQuery, useValidateProfileMutation } from '../registerApi';
import { backRequested, type RegisterState } from '../registerSlice';
import { profileErrors, type FieldErrors, type ProfileValues } from '../registerRules';
import { useFocusFirstInvalid } from '../useFocusFirstInvalid';
import { LookupFailed } from './LookupFailed';
import { StepError } from './StepError';

/**
 * Step 3: profile name, password and its confirmation, where the player heard of us (sources lookup) and the
 * inviter code: read-only when it came with the invite link (?code=, kept in the `code` preference).
 */
export function ProfileStep({ state }: { state: Extract<RegisterState, { step: 'profile' }> }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const storedCode = useAppSelector(selectInviteCode);
  const sources = useGetSourcesLookupQuery();
  // The server's password rule, named under the field before typing (issue 12); unknown until the lookup answers.
  const minLength = useGetSiteInfoQuery().data?.passwordMinLength;
  const [validate] = useValidateProfileMutation();
  const [values, setValues] = useState<ProfileValues>(() => ({
    name: state.profile?.name ?? '',
    password: state.profile?.password ?? '',
    confirmPassword: state.profile?.password ?? '',
    sourceCode: state.profile?.sourceCode ?? '',
  }));
  const [inviteCode, setInviteCode] = useState(state.profile?.inviteCode ?? '');
  const [errors, setErrors] = useState<FieldErrors<keyof ProfileValues>>({});
  const form = useRef<HTMLFormElement>(null);
  const refused = useFocusFirstInvalid(form);
  const busy = state.pending !== null;
  const invite = storedCode ?? inviteCode;

  const change = (field: keyof ProfileValues) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = profileErrors(values, minLength);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      refused();
      return;
    }
    void validate({
      phone: state.phone,
      profile: { name: values.name.trim(), password: values.password, sourceCode: values.sourceCode, inviteCode: invite.trim() },
    });
  };

  const error = (field: keyof ProfileValues) => (errors[field] ? t(errors[field], { min: minLength }) : null);

  return (
    <form ref={form} className="form" onSubmit={onSubmit} noValidate data-testid="register-profile-form">
      <TextField label={t('register.name')} name="name" autoComplete="nickname" value={values.name} onChange={change('name')} required error={error('name')} data-testid="register-name" />
      <TextField
        label={t('register.password')}
        name="password"
        type="password"
        autoComplete="new-password"
        value={values.password}
        onChange={change('password')}
        required
        minLength={minLength}
        hint={minLength !== undefined ? t('register.passwordRule', { min: minLength }) : undefined}
        error={error('password')}
        data-testid="register-password"
      />
      <TextField
        label={t('register.confirmPassword')}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        value={values.confirmPassword}
        onChange={change('confirmPassword')}
        required
        error={error('confirmPassword')}
        data-testid="register-confirm"
      />
      {sources.isError ? (
        <LookupFailed onRetry={() => void sources.refetch()} />
      ) : (
        <SelectField
          label={t('register.source')}
          name="sourceCode"
          value={values.sourceCode}
          onChange={change('sourceCode')}
          required
          aria-busy={sources.isLoading}
          error={error('sourceCode')}
          data-testid="register-source"
        >
          <option value="">{t('register.sourceChoose')}</option>
          {(sources.data ?? []).map((source) => (
            <option key={source.code} value={source.code}>
              {source.description}
            </option>
          ))}
        </SelectField>
      )}
      <TextField
        label={t('register.inviteCode')}
        name="inviteCode"
        autoComplete="off"
        autoCapitalize="characters"
        value={invite}
        readOnly={storedCode !== null}
        onChange={(event) => setInviteCode(event.target.value.toUpperCase())}
        hint={storedCode === null ? t('register.optional') : undefined}
        data-testid="register-invite"
      />
      <StepError code={state.error} values={{ min: minLength }} />
      <div className="register__actions">
        <button type="button" className="button" onClick={() => dispatch(backRequested())} disabled={busy}>
          {t('register.back')}
        </button>
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy} data-testid="register-next">
          {busy ? t('register.working') : t('register.next')}
        </button>
      </div>
    </form>
  );
}
