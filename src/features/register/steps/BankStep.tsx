import { useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { Market } from '../../../core/build';
import { useAppDispatch } from '../../../core/hooks';
import { useGetSiteInfoQuery } from '../../../core/lookupApi';
import { BankAccountFields, type AccountNameField } from '../../../components/BankAccountFields';
import { useGetBanksLookupQuery, useRegisterAccountMutation, type BankDraft, type Currency } from '../registerApi';
import { backRequested, type RegisterState } from '../registerSlice';
import { bankErrors, type FieldErrors } from '../registerRules';
import { useFocusFirstInvalid } from '../useFocusFirstInvalid';
import { LookupFailed } from './LookupFailed';
import { StepError } from './StepError';

/** Currency options of the Lao build (spec §9), LAK first and by default. */
export const CURRENCIES: Currency[] = ['LAK', 'BAHT'];

/** The player's market's own currency: LAK in the Lao build, baht elsewhere. */
export const defaultCurrency = (market: Market): Currency => (market === 'lao' ? 'LAK' : 'BAHT');

/** The account's first and last name, after the account number; the first one carries the name hint. */
const NAME_FIELDS: AccountNameField<'firstName' | 'lastName'>[] = [
  { field: 'firstName', labelKey: 'register.firstName', hint: true, testId: 'register-first-name' },
  { field: 'lastName', labelKey: 'register.lastName', testId: 'register-last-name' },
];

type BankField = 'bankCode' | 'bankAccountNo' | 'firstName' | 'lastName' | 'ageConfirmed';

/**
 * Step 4: the bank (banks lookup), account number, the account's first and last name (upper-cased as typed,
 * English only for KTB, TMB and BBL), and in the Lao build the currency. Submitting registers the player.
 */
export function BankStep({ state, market }: { state: Extract<RegisterState, { step: 'bank' }>; market: Market }) {
  const { t } = useTranslation();
  const dispatch = useAppDispatch();
  // The build's market's banks only (issue 12): Thai banks in the Thai build, BCEL and the other Lao banks in the Lao one.
  const banks = useGetBanksLookupQuery(market);
  const minAge = useGetSiteInfoQuery().data?.minPlayerAge;
  const [register] = useRegisterAccountMutation();
  const [values, setValues] = useState<BankDraft>(
    () => state.bank ?? { bankCode: '', bankAccountNo: '', firstName: '', lastName: '', currency: defaultCurrency(market) },
  );
  const [errors, setErrors] = useState<FieldErrors<BankField>>({});
  const form = useRef<HTMLFormElement>(null);
  const refused = useFocusFirstInvalid(form);
  const busy = state.pending !== null;

  const set = (field: keyof BankDraft, value: string | boolean) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (field in errors) setErrors(({ [field as BankField]: _gone, ...rest }) => rest);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = bankErrors(values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      refused();
      return;
    }
    void register({ phone: state.phone, profile: state.profile, bank: values });
  };

  const error = (field: BankField) => (errors[field] ? t(errors[field]) : null);

  return (
    <form ref={form} className="form" onSubmit={onSubmit} noValidate data-testid="register-bank-form">
      <BankAccountFields
        testIdPrefix="register"
        labelKeys={{ bank: 'register.bank', accountNo: 'register.accountNo' }}
        banks={banks.data ?? []}
        loading={banks.isLoading}
        failed={banks.isError && <LookupFailed onRetry={() => void banks.refetch()} />}
        values={values}
        names={NAME_FIELDS}
        error={error}
        onChange={set}
        englishOnlyAs="note"
        mark
      />
      {market === 'lao' && (
        <fieldset className="register__currency" data-testid="register-currency">
          <legend>{t('register.currency')}</legend>
          {CURRENCIES.map((currency) => (
            <label key={currency} className="field--inline">
              <input
                type="radio"
                name="currency"
                value={currency}
                checked={values.currency === currency}
                onChange={() => set('currency', currency)}
              />
              {t(`register.currencies.${currency}`)}
            </label>
          ))}
        </fieldset>
      )}
      <div className="field">
        <div className="field--inline register__age">
          <input
            id="register-age"
            name="ageConfirmed"
            type="checkbox"
            checked={values.ageConfirmed === true}
            onChange={(event) => set('ageConfirmed', event.target.checked)}
            required
            aria-invalid={errors.ageConfirmed ? true : undefined}
            aria-describedby={errors.ageConfirmed ? 'register-age-error' : undefined}
            data-testid="register-age"
          />
          <label htmlFor="register-age">{typeof minAge === 'number' ? t('register.ageConfirm', { age: minAge }) : t('register.ageConfirmAny')}</label>
        </div>
        {errors.ageConfirmed && (
          <p id="register-age-error" className="field__error" data-testid="field-error">
            {t(errors.ageConfirmed)}
          </p>
        )}
      </div>
      <StepError code={state.error} />
      <div className="register__actions">
        <button type="button" className="button" onClick={() => dispatch(backRequested({ bank: values }))} disabled={busy}>
          {t('register.back')}
        </button>
        <button type="submit" className="button button--primary" disabled={busy} aria-busy={busy} data-testid="register-submit">
          {busy ? t('register.working') : t('register.submit')}
        </button>
      </div>
    </form>
  );
}
