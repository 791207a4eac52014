import { accountNumberInput } from '../../lib/bankAccountName';
import { joinAccountName, registrationPayload } from './registerApi';
import { bankErrors, phoneError, profileErrors } from './registerRules';

describe('registration rules (spec §5)', () => {
  it.each([
    ['0812345678', 'th', null],
    [' 0812345678 ', 'th', null],
    ['', 'th', 'register.phoneRequired'],
    ['081234567', 'th', 'register.phoneDigits'],
    ['08123456789', 'th', 'register.phoneDigits'],
    ['08123456ab', 'th', 'register.phoneDigits'],
    ['20555123', 'lao', null],
    ['02012345678', 'lao', null],
    ['2055512', 'lao', 'register.phoneLaoLength'],
    ['020123456789', 'lao', 'register.phoneLaoLength'],
    ['020-1234', 'lao', 'register.phoneNumeric'],
    ['', 'lao', 'register.phoneRequired'],
  ] as const)('phone %p in the %s build -> %p', (phone, market, error) => {
    expect(phoneError(phone, market)).toBe(error);
  });

  it('requires name, both passwords and the source; the passwords must match', () => {
    expect(profileErrors({ name: ' ', password: '', confirmPassword: '', sourceCode: '' })).toEqual({
      name: 'register.required',
      password: 'register.required',
      confirmPassword: 'register.required',
      sourceCode: 'register.chooseRequired',
    });
    expect(profileErrors({ name: 'A', password: 'x1', confirmPassword: 'x2', sourceCode: 'line' })).toEqual({
      confirmPassword: 'register.passwordMismatch',
    });
    expect(profileErrors({ name: 'A', password: 'x1', confirmPassword: 'x1', sourceCode: 'line' })).toEqual({});
  });

  it('requires the bank fields; KTB, TMB and BBL names are English only', () => {
    const bank = { bankCode: 'KTB', bankAccountNo: '1234567890', firstName: 'SOMCHAI', lastName: 'JAIDEE', currency: '' as const, ageConfirmed: true };
    expect(bankErrors(bank)).toEqual({});
    expect(bankErrors({ ...bank, bankCode: '', bankAccountNo: ' ', firstName: '', lastName: '', ageConfirmed: false })).toEqual({
      bankCode: 'register.chooseRequired',
      bankAccountNo: 'register.required',
      firstName: 'register.required',
      lastName: 'register.required',
      ageConfirmed: 'register.ageRequired',
    });
    // Issue 15: the age box must be ticked (not ticked yet = not confirmed).
    expect(bankErrors({ ...bank, ageConfirmed: undefined })).toEqual({ ageConfirmed: 'register.ageRequired' });
    for (const code of ['KTB', 'TMB', 'BBL']) {
      expect(bankErrors({ ...bank, bankCode: code, lastName: 'ใจดี' })).toEqual({ lastName: 'register.englishOnly' });
    }
    expect(bankErrors({ ...bank, bankCode: 'KBANK', firstName: 'สมชาย', lastName: 'ใจดี' })).toEqual({});
  });

  it('keeps only the digits of an account number', () => {
    expect(accountNumberInput('123-456 7890')).toBe('1234567890');
    expect(accountNumberInput('abc')).toBe('');
  });

  it('joins first and last name with one space, upper case', () => {
    expect(joinAccountName(' somchai ', 'jai  dee')).toBe('SOMCHAI JAI DEE');
    expect(joinAccountName('SOMCHAI', '')).toBe('SOMCHAI');
  });

  it('builds the registration payload of spec §3', () => {
    const profile = { name: ' Somchai ', password: ' p w ', sourceCode: 'line', inviteCode: ' ' };
    expect(registrationPayload('0812345678', profile)).toEqual({
      name: 'Somchai',
      username: '0812345678',
      password: ' p w ',
      sourceCode: 'line',
      inviteCode: null,
      bankCode: '',
      bankAccountName: '',
      bankAccountNo: '',
      currency: '',
    });
    expect(
      registrationPayload('0812345678', { ...profile, inviteCode: 'PR1' }, { bankCode: 'SCB', bankAccountNo: '1234567890', firstName: 'a', lastName: 'b', currency: 'LAK' }),
    ).toMatchObject({ inviteCode: 'PR1', bankCode: 'SCB', bankAccountName: 'A B', bankAccountNo: '1234567890', currency: 'LAK', ageConfirmed: false });
    // Issue 15: the registration (with the bank) carries the age box; the profile step's validation does not.
    expect(
      registrationPayload('0812345678', profile, { bankCode: 'SCB', bankAccountNo: '1', firstName: 'a', lastName: 'b', currency: '', ageConfirmed: true }),
    ).toMatchObject({ ageConfirmed: true });
    expect(registrationPayload('0812345678', profile)).not.toHaveProperty('ageConfirmed');
  });
});
