import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { ProfileView } from '../../app/accountApi';
import { errorCode } from '../../app/apiErrors';
import { MARKET, type Market } from '../../app/build';
import { useAppSelector } from '../../app/hooks';
import { errorText } from '../../app/notify';
import { selectLocale } from '../../app/prefs';
import { SelectField, TextField } from '../../components/FormField';
import { Modal } from '../../components/Modal';
import { isEnglishName, needsEnglishName, normalizeName, upperCaseName } from '../../lib/bankAccountName';
import type { Locale } from '../../lib/locale';
import { useGetProfileBanksQuery, useUpdateProfileMutation, type ProfileBank, type ProfileChange } from './profileApi';

export const EDIT_PROFILE_MODAL = 'editProfile';

type Field = keyof ProfileChange;
type Errors = Partial<Record<Field, string>>;

/** The same client rules as the registration (spec §5): all required, English names for KTB/TMB/BBL, digits only. */
export function profileChangeErrors(values: ProfileChange, englishOnly: boolean): Errors {
  const errors: Errors = {};
  if (values.name.trim() === '') errors.name = 'register.required';
  if (values.bankCode === '') errors.bankCode = 'register.chooseRequired';
  const accountName = normalizeName(values.bankAccountName);
  if (accountName === '') errors.bankAccountName = 'register.required';
  else if (englishOnly && !isEnglishName(accountName)) errors.bankAccountName = 'register.englishOnly';
  if (values.bankAccountNo === '') errors.bankAccountNo = 'register.required';
  return errors;
}

const bankLabel = (bank: ProfileBank, locale: Locale) => (locale === 'th' ? bank.nameTH : bank.nameEN || bank.nameTH);

/**
 * Edit profile (spec §2 names it; PUT /api/account/profile): the profile name and the bank account (bank, account
 * name, number). The banks are the build's market's, plus the player's own if it is not among them. The server's
 * refusal (EXISTING_BANK, BANK_ACCOUNT_NAME_ENG, INVALID_BANK...) shows in the modal; success closes it and the
 * profile and the home read the new data.
 */
export function EditProfileModal({ profile, onClose, market = MARKET }: { profile: ProfileView; onClose: () => void; market?: Market }) {
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const banks = useGetProfileBanksQuery(market);
  const [update, { isLoading }] = useUpdateProfileMutation();
  const own = profile.bankAccount;
  const [values, setValues] = useState<ProfileChange>({
    name: profile.profile.name,
    bankCode: own?.bankCode ?? '',
    bankAccountName: own?.bankAccountName ?? '',
    bankAccountNo: own?.bankAccountNo ?? '',
  });
  const [errors, setErrors] = useState<Errors>({});
  const [failed, setFailed] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);

  const options: ProfileBank[] = [...(banks.data ?? [])];
  if (own && !options.some((bank) => bank.code === own.bankCode)) {
    options.unshift({ code: own.bankCode, nameTH: own.bank.nameTH, nameEN: own.bank.nameEN });
  }
  const chosen = options.find((bank) => bank.code === values.bankCode);
  const englishOnly = values.bankCode !== '' && (chosen?.englishNameOnly ?? needsEnglishName(values.bankCode));

  const set = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (errors[field]) setErrors(({ [field]: _gone, ...rest }) => rest);
    setFailed(null);
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isLoading) return;
    const found = profileChangeErrors(values, englishOnly);
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
    });
    if ('data' in result && result.data) onClose();
    else setFailed(errorCode('error' in result ? result.error : null));
  };

  const error = (field: Field) => (errors[field] ? t(errors[field]) : null);

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
        <SelectField
          label={t('profile.bankName')}
          name="bankCode"
          value={values.bankCode}
          onChange={(event) => set('bankCode', event.target.value)}
          required
          aria-busy={banks.isLoading}
          error={error('bankCode')}
          data-testid="edit-profile-bank"
        >
          <option value="">{t('register.bankChoose')}</option>
          {options.map((bank) => (
            <option key={bank.code} value={bank.code}>
              {bankLabel(bank, locale)}
            </option>
          ))}
        </SelectField>
        <TextField
          label={t('profile.bankAccountName')}
          name="bankAccountName"
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          value={values.bankAccountName}
          onChange={(event) => set('bankAccountName', upperCaseName(event.target.value))}
          required
          hint={englishOnly ? t('register.englishOnlyBank', { bank: chosen ? bankLabel(chosen, locale) : values.bankCode }) : t('register.nameHint')}
          error={error('bankAccountName')}
          data-testid="edit-profile-account-name"
        />
        <TextField
          label={t('profile.accountNo')}
          name="bankAccountNo"
          inputMode="numeric"
          autoComplete="off"
          value={values.bankAccountNo}
          onChange={(event) => set('bankAccountNo', event.target.value.replace(/\D/g, ''))}
          required
          hint={t('register.accountNoHint')}
          error={error('bankAccountNo')}
          data-testid="edit-profile-account-no"
        />
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
