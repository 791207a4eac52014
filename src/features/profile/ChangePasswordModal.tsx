import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { errorCode } from '../../core/apiErrors';
import { tokenReplaced } from '../../core/authEvents';
import { useAppDispatch } from '../../core/hooks';
import { useGetSiteInfoQuery } from '../../core/lookupApi';
import { errorText } from '../../core/notify';
import { TextField } from '../../components/FormField';
import { Modal } from '../../components/Modal';
import { checkPasswordChange, type PasswordChange } from './passwordRules';
import { useChangePasswordMutation } from './profileApi';

export const CHANGE_PASSWORD_MODAL = 'changePassword';

type Outcome = { kind: 'editing' } | { kind: 'saved' } | { kind: 'failed'; code: string };

/**
 * Change password (spec §5, §8): old, new and confirmation. The server revokes every earlier token and answers
 * a fresh one, which replaces the stored token so this device stays logged in. Success shows the saved alert;
 * a failure shows an error alert with the error text.
 */
export function ChangePasswordModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  const [change, { isLoading }] = useChangePasswordMutation();
  // The server's password rule, named under the new password (issue 12) and in its PASSWORD_TOO_SHORT refusal.
  const minLength = useGetSiteInfoQuery().data?.passwordMinLength;
  const [values, setValues] = useState<PasswordChange>({ oldPassword: '', newPassword: '', confirmPassword: '' });
  const [notEqual, setNotEqual] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'editing' });
  const confirmInput = useRef<HTMLInputElement>(null);
  const okButton = useRef<HTMLButtonElement>(null);

  const set = (field: keyof PasswordChange) => (event: { target: { value: string } }) => {
    setValues((current) => ({ ...current, [field]: event.target.value }));
    if (field !== 'oldPassword') setNotEqual(false);
    if (outcome.kind === 'failed') setOutcome({ kind: 'editing' });
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isLoading) return;
    const check = checkPasswordChange(values);
    if (check.outcome === 'ignored') return;
    if (check.outcome === 'notEqual') {
      setNotEqual(true);
      confirmInput.current?.focus();
      return;
    }
    setNotEqual(false);
    const result = await change({ oldPassword: values.oldPassword, newPassword: values.newPassword });
    if ('data' in result && result.data) {
      dispatch(tokenReplaced(result.data.token));
      setOutcome({ kind: 'saved' });
      // The form is gone; the alert's button takes the focus so the result is read and can be closed.
      setTimeout(() => okButton.current?.focus(), 0);
    } else {
      setOutcome({ kind: 'failed', code: errorCode('error' in result ? result.error : null) });
    }
  };

  return (
    <Modal id={CHANGE_PASSWORD_MODAL} title={t('password.title')} onClose={onClose}>
      {outcome.kind === 'saved' ? (
        <div className="change-password__saved">
          <div className="alert alert--success" role="alert" data-testid="password-saved">
            <strong>{t('password.saved')}</strong>
            <p>{t('password.savedBody')}</p>
          </div>
          <button ref={okButton} type="button" className="button button--primary" onClick={onClose} data-testid="password-ok">
            {t('password.ok')}
          </button>
        </div>
      ) : (
        <form className="form form--flat" onSubmit={onSubmit} noValidate data-testid="change-password-form">
          <TextField
            label={t('password.old')}
            name="oldPassword"
            type="password"
            autoComplete="current-password"
            value={values.oldPassword}
            onChange={set('oldPassword')}
            required
            data-testid="password-old"
          />
          <TextField
            label={t('password.new')}
            name="newPassword"
            type="password"
            autoComplete="new-password"
            value={values.newPassword}
            onChange={set('newPassword')}
            required
            hint={minLength !== undefined ? t('register.passwordRule', { min: minLength }) : undefined}
            data-testid="password-new"
          />
          <TextField
            ref={confirmInput}
            label={t('password.confirm')}
            name="confirmPassword"
            type="password"
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
            required
            error={notEqual ? t('password.notEqual') : null}
            data-testid="password-confirm"
          />
          {outcome.kind === 'failed' && (
            <div className="alert alert--error" role="alert" data-testid="password-failed">
              <strong>{t('password.failed')}</strong>
              <p>{errorText(outcome.code, { min: minLength })}</p>
            </div>
          )}
          <button type="submit" className="button button--primary" disabled={isLoading} aria-busy={isLoading} data-testid="password-submit">
            {isLoading ? t('password.saving') : t('password.submit')}
          </button>
        </form>
      )}
    </Modal>
  );
}
