import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { ProfileView } from '../../core/accountApi';
import { errorCode } from '../../core/apiErrors';
import { MARKET, type Market } from '../../core/build';
import { errorText } from '../../core/notify';
import { BankAccountFields, takesEnglishName, type AccountNameField } from '../../components/BankAccountFields';
import { TextField } from '../../components/FormField';
import { Modal } from '../../components/Modal';
import { isEnglishName, normalizeName } from '../../lib/bankAccountName';
import { useGetProfileBanksQuery, useUpdateProfileMutation, type ProfileBank, type ProfileChange } from './profileApi';

export const EDIT_PROFILE_MODAL = 'editProfile';

type Field = Exclude<keyof ProfileChange, 'password'>;
type Errors = Partial<Record<Field | 'password', string>>;

/**
 * The same client rules as the registration (spec §5): all required, English names for KTB/TMB/BBL, digits only;
 * and the current password when the bank or the account number changes (issue 39 row 6).
 */
export function profileChangeErrors(values: ProfileChange, englishOnly: boolean, bankChanged = false): Errors {
  const errors: Errors = {};
  if (values.name.trim() === '') errors.name = 'register.required';
  if (values.bankCode === '') errors.bankCode = 'register.chooseRequired';
  const accountName = normalizeName(values.bankAccountName);
  if (accountName === '') errors.bankAccountName = 'register.required';
  else if (englishOnly && !isEnglishName(accountName)) errors.bankAccountName = 'register.englishOnly';
  if (values.bankAccountNo === '') errors.bankAccountNo = 'register.required';
  if (bankChanged && !values.password) errors.password = 'profile.passwordRequired';
  return errors;
}

/** A change of the bank or of the account number: the server then needs the current password and holds withdrawals. */
export function changesBank(values: Pick<ProfileChange, 'bankCode' | 'bankAccountNo'>, own: { bankCode: string; bankAccountNo: string } | null): boolean {
  return !own || values.bankCode !== own.bankCode || values.bankAccountNo !== own.bankAccountNo;
}

/** One account name, before the account number; its hint turns into the English-only note for KTB/TMB/BBL. */
const NAME_FIELDS: AccountNameField<'bankAccountName'>[] = [
  { field: 'bankAccountName', labelKey: 'profile.bankAccountName', hint: true, testId: 'edit-profile-account-name' },
];

/**
 * Edit profile (spec §2 names it; PUT /api/account/profile): the profile name and the bank account (bank, account
 * name, number). The banks are the build's market's, plus the player's own if it is not among them. The server's
 * refusal (EXISTING_BANK, BANK_ACCOUNT_NAME_ENG, INVALID_BANK...) shows in the modal; success closes it and the
 * profile and the home read the new data. Changing the bank or the account number asks for the current password
 * (issue 39 row 6: a token alone must not redirect withdrawals), sent with the change; a name-only edit does not.
 */
export function EditProfileModal({ profile, onClose, market = MARKET }: { profile: ProfileView; onClose: () => void; market?: Market }) {
  const { t } = useTranslation();
  const banks = useGetProfileBanksQuery(market);
  const [update, { isLoading }] = useUpdateProfileMutation();
  const own = profile.bankAccount;
  const [values, setValues] = useState<Omit<ProfileChange, 'password'>>({
    name: profile.profile.name,
    bankCode: own?.bankCode ?? '',
    bankAccountName: own?.bankAccountName ?? '',
    bankAccountNo: own?.bankAccountNo ?? '',
  });
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failed, setFailed] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);

  const options: ProfileBank[] = [...(banks.data ?? [])];
  if (own && !options.some((bank) => bank.code === own.bankCode)) {
    options.unshift({ code: own.bankCode, nameTH: own.bank.nameTH, nameEN: own.bank.nameEN });
  }
  const englishOnly = takesEnglishName(values.bankCode, options);
  const bankChanged = changesBank(values, own);

  const set = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
    setFailed(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isLoading) return;
    const found = profileChangeErrors({ ...values, password }, englishOnly, bankChanged);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      // The first invalid control takes the focus, as on the registration steps.
      setTimeout(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus(), 0);
      return;
    }
    const result = await update({
      name: values.name.trim(),
      bankCode: values.bankCode,
      bankAccountName: normalizeName(values.bankAccountName),
      bankAccountNo: values.bankAccountNo,
      ...(bankChanged ? { password } : {}),
    });
    if ('data' in result && result.data) onClose();
    else setFailed(errorCode('error' in result ? result.error : null));
  };

  const error = (field: Field | 'password') => (errors[field] ? t(errors[field]) : null);

  return (
    <Modal id={EDIT_PROFILE_MODAL} title={t('profile.editTitle')} onClose={onClose}>
      <form ref={form} className="form form--flat" onSubmit={onSubmit} noValidate data-testid="edit-profile-form">
        <TextField
          label={t('register.name')}
          name="name"
          autoComplete="nickname"
          value={values.name}
          onChange={(event) => set('name', event.target.value)}
          required
          error={error('name')}
          data-testid="edit-profile-name"
        />
        <BankAccountFields
          testIdPrefix="edit-profile"
          labelKeys={{ bank: 'profile.bankName', accountNo: 'profile.accountNo' }}
          banks={options}
          loading={banks.isLoading}
          values={values}
          names={NAME_FIELDS}
          error={error}
          onChange={set}
          englishOnlyAs="hint"
          namesFirst
        />
        {bankChanged && (
          <TextField
            label={t('profile.currentPassword')}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => {
              setPassword(event.target.value);
              if (errors.password) setErrors(({ password: _gone, ...rest }) => rest);
              setFailed(null);
            }}
            required
            hint={t('profile.currentPasswordHint')}
            error={error('password')}
            data-testid="edit-profile-password"
          />
        )}
        {failed && (
          <div className="alert alert--error" role="alert" data-testid="edit-profile-failed">
            <p>{errorText(failed)}</p>
          </div>
        )}
        <div className="profile__actions">
          <button type="button" className="button" onClick={onClose}>
            {t('profile.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={isLoading} aria-busy={isLoading} data-testid="edit-profile-submit">
            {isLoading ? t('password.saving') : t('password.submit')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
