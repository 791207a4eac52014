import { screen } from '@testing-library/react';
import { useState } from 'react';

import { renderWithProviders } from '../test/support/render';
import { BankAccountFields, bankLabel, takesEnglishName, type AccountNameField, type BankChoice } from './BankAccountFields';

const BANKS: BankChoice[] = [
  { code: 'KBANK', nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank', englishNameOnly: false },
  { code: 'KTB', nameTH: 'ธนาคารกรุงไทย', nameEN: 'Krungthai Bank', englishNameOnly: true },
  { code: 'XYZ', nameTH: 'ธนาคารใหม่' },
];

type Name = 'firstName' | 'lastName';
const NAMES: AccountNameField<Name>[] = [
  { field: 'firstName', labelKey: 'register.firstName', hint: true, testId: 'x-first-name' },
  { field: 'lastName', labelKey: 'register.lastName', testId: 'x-last-name' },
];

/** The fields under a caller that keeps the values, as the bank step and the edit-profile modal do. */
function Harness({ englishOnlyAs, namesFirst, mark }: { englishOnlyAs: 'note' | 'hint'; namesFirst?: boolean; mark?: boolean }) {
  const [values, setValues] = useState<Record<'bankCode' | 'bankAccountNo' | Name, string>>({ bankCode: '', bankAccountNo: '', firstName: '', lastName: '' });
  return (
    <form data-testid="form">
      <BankAccountFields
        testIdPrefix="x"
        labelKeys={{ bank: 'register.bank', accountNo: 'register.accountNo' }}
        banks={BANKS}
        loading={false}
        values={values}
        names={NAMES}
        error={(field) => (field === 'bankAccountNo' ? 'Wrong number' : null)}
        onChange={(field, value) => setValues((current) => ({ ...current, [field]: value }))}
        englishOnlyAs={englishOnlyAs}
        namesFirst={namesFirst}
        mark={mark}
      />
    </form>
  );
}

const order = () => Array.from(screen.getByTestId('form').querySelectorAll('input, select')).map((control) => control.getAttribute('name'));

describe('bank account fields (registration bank step, edit profile)', () => {
  it('labels the banks per locale and knows which take English names', () => {
    expect(bankLabel(BANKS[1], 'th')).toBe('ธนาคารกรุงไทย');
    expect(bankLabel(BANKS[1], 'en')).toBe('Krungthai Bank');
    expect(bankLabel(BANKS[2], 'la')).toBe('ธนาคารใหม่');
    expect(takesEnglishName('KTB', BANKS)).toBe(true);
    expect(takesEnglishName('KBANK', BANKS)).toBe(false);
    // Not in the lookup (or no englishNameOnly): spec §9's list decides.
    expect(takesEnglishName('BBL', BANKS)).toBe(true);
    expect(takesEnglishName('XYZ', BANKS)).toBe(false);
    expect(takesEnglishName('', BANKS)).toBe(false);
  });

  it('note layout: the English-only status under the select, the mark, account number then names, input cleaned as typed', async () => {
    const { user } = renderWithProviders(<Harness englishOnlyAs="note" mark />);
    expect(order()).toEqual(['bankCode', 'bankAccountNo', 'firstName', 'lastName']);
    expect(screen.queryByTestId('x-english-only')).not.toBeInTheDocument();
    expect(screen.getByTestId('form').querySelector('[data-bank]')).toBeNull();

    await user.selectOptions(screen.getByTestId('x-bank'), 'KTB');
    expect(screen.getByTestId('x-english-only')).toHaveTextContent('Krungthai Bank takes the account name in English letters only (A-Z)');
    expect(screen.getByTestId('x-english-only')).toHaveAttribute('role', 'status');
    expect(screen.getByLabelText('Account first name')).toHaveAccessibleDescription('As printed on your bank book.');
    expect(screen.getByTestId('form').querySelector('[data-bank="KTB"]')).not.toBeNull();

    await user.type(screen.getByTestId('x-account-no'), '123-456 7890');
    expect(screen.getByTestId('x-account-no')).toHaveValue('1234567890');
    expect(screen.getByTestId('x-account-no')).toHaveAccessibleDescription('Wrong number Digits only, no dashes');
    await user.type(screen.getByTestId('x-first-name'), 'somchai');
    expect(screen.getByTestId('x-first-name')).toHaveValue('SOMCHAI');

    await user.selectOptions(screen.getByTestId('x-bank'), 'KBANK');
    expect(screen.queryByTestId('x-english-only')).not.toBeInTheDocument();
  });

  it('hint layout: names before the account number, the English-only note as the name hint, no mark', async () => {
    const { user } = renderWithProviders(<Harness englishOnlyAs="hint" namesFirst />);
    expect(order()).toEqual(['bankCode', 'firstName', 'lastName', 'bankAccountNo']);
    await user.selectOptions(screen.getByTestId('x-bank'), 'KTB');
    expect(screen.queryByTestId('x-english-only')).not.toBeInTheDocument();
    expect(screen.getByTestId('x-first-name')).toHaveAccessibleDescription(expect.stringContaining('Krungthai Bank takes the account name in English letters only'));
    expect(screen.getByTestId('x-last-name')).not.toHaveAccessibleDescription();
    expect(screen.getByTestId('form').querySelector('[data-bank]')).toBeNull();
  });
});
