import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppSelector } from '../core/hooks';
import { selectLocale } from '../core/prefs';
import { accountNumberInput, needsEnglishName, upperCaseName } from '../lib/bankAccountName';
import type { Locale } from '../lib/locale';
import { BankMark } from './BankMark';
import { SelectField, TextField } from './FormField';

/** A bank as the banks lookups answer it (registration and edit profile). */
export interface BankChoice {
  code: string;
  nameTH: string;
  nameEN?: string;
  englishNameOnly?: boolean;
}

/** The bank's name in the interface language: Thai in Thai, else English (Thai when it has no English name). */
export function bankLabel(bank: BankChoice, locale: Locale): string {
  return locale === 'th' ? bank.nameTH : bank.nameEN || bank.nameTH;
}

/** Whether the chosen bank takes English account names: the lookup's englishNameOnly, else spec §9's KTB/TMB/BBL. */
export function takesEnglishName(bankCode: string, banks: readonly BankChoice[] | undefined): boolean {
  if (bankCode === '') return false;
  return banks?.find((bank) => bank.code === bankCode)?.englishNameOnly ?? needsEnglishName(bankCode);
}

/** An account-name field (upper-cased as typed). */
export interface AccountNameField<N extends string> {
  field: N;
  /** Translation key of its label. */
  labelKey: string;
  /** Shows the name hint, or the English-only note when englishOnlyAs is 'hint'. */
  hint?: boolean;
  testId: string;
}

type BankField = 'bankCode' | 'bankAccountNo';

export interface BankAccountFieldsProps<N extends string> {
  /** data-testid prefix: `${prefix}-bank`, `${prefix}-account-no`, `${prefix}-english-only`. */
  testIdPrefix: string;
  /** Translation keys of the bank select's and the account number's labels. */
  labelKeys: { bank: string; accountNo: string };
  banks: readonly BankChoice[];
  loading: boolean;
  /** Shown in place of the select (the banks lookup failed, with a retry). */
  failed?: ReactNode;
  values: Readonly<Record<BankField | NoInfer<N>, string>>;
  /** The account-name fields (their names are N: the values, error and onChange take them). */
  names: readonly AccountNameField<N>[];
  /** The field's error, already translated, or null. */
  error(field: BankField | NoInfer<N>): string | null;
  onChange(field: BankField | NoInfer<N>, value: string): void;
  /** Where KTB/TMB/BBL's English-only note shows: a status line under the select, or as the name field's hint. */
  englishOnlyAs: 'note' | 'hint';
  /** The name fields before the account number (else after it). */
  namesFirst?: boolean;
  /** The chosen bank's mark beside the select. */
  mark?: boolean;
}

/**
 * The bank account fields of the registration's bank step and of the edit-profile modal (spec §5): the bank (its
 * options in the interface language), the account name (upper-cased as typed, English only for KTB, TMB and BBL,
 * said as soon as one is chosen) and the account number (digits only). The caller keeps the values and the rules.
 */
export function BankAccountFields<N extends string>(props: BankAccountFieldsProps<N>) {
  const { testIdPrefix, labelKeys, banks, loading, failed, values, names, error, onChange, englishOnlyAs, namesFirst, mark } = props;
  const { t } = useTranslation();
  const locale = useAppSelector(selectLocale);
  const bankCode = values.bankCode;
  const chosen = banks.find((bank) => bank.code === bankCode);
  const englishOnly = takesEnglishName(bankCode, banks);
  const englishNote = englishOnly ? t('register.englishOnlyBank', { bank: chosen ? bankLabel(chosen, locale) : bankCode }) : null;

  const nameFields = names.map(({ field, labelKey, hint, testId }) => (
    <TextField
      key={field}
      label={t(labelKey)}
      name={field}
      autoComplete="off"
      autoCapitalize="characters"
      spellCheck={false}
      value={values[field]}
      onChange={(event) => onChange(field, upperCaseName(event.target.value))}
      required
      hint={hint ? ((englishOnlyAs === 'hint' && englishNote) || t('register.nameHint')) : undefined}
      error={error(field)}
      data-testid={testId}
    />
  ));
  const accountNo = (
    <TextField
      label={t(labelKeys.accountNo)}
      name="bankAccountNo"
      inputMode="numeric"
      autoComplete="off"
      value={values.bankAccountNo}
      onChange={(event) => onChange('bankAccountNo', accountNumberInput(event.target.value))}
      required
      hint={t('register.accountNoHint')}
      error={error('bankAccountNo')}
      data-testid={`${testIdPrefix}-account-no`}
    />
  );

  return (
    <>
      {failed || (
        <SelectField
          label={t(labelKeys.bank)}
          name="bankCode"
          value={bankCode}
          onChange={(event) => onChange('bankCode', event.target.value)}
          required
          aria-busy={loading}
          error={error('bankCode')}
          data-testid={`${testIdPrefix}-bank`}
          adornment={mark && chosen && <BankMark code={chosen.code} size={36} />}
        >
          <option value="">{t('register.bankChoose')}</option>
          {banks.map((bank) => (
            <option key={bank.code} value={bank.code}>
              {bankLabel(bank, locale)}
            </option>
          ))}
        </SelectField>
      )}
      {englishOnlyAs === 'note' && englishNote && (
        <p className="register__english-note" role="status" data-testid={`${testIdPrefix}-english-only`}>
          {englishNote}
        </p>
      )}
      {namesFirst ? (
        <>
          {nameFields}
          {accountNo}
        </>
      ) : (
        <>
          {accountNo}
          {nameFields}
        </>
      )}
    </>
  );
}
