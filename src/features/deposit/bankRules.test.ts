import { accountDigits, banksForCurrency, groupAccountNumber } from './bankRules';
import { copyTextFor } from './copyRules';
import { bankDisplayName } from './names';

/** Issue 40 item 9: one grouping for every bank, copy the digits only, the accounts of the player's market. */
describe('groupAccountNumber', () => {
  it('groups every bank the same way: threes, the last group four rather than a lone digit', () => {
    expect(groupAccountNumber('0123456789')).toBe('012-345-6789'); // KBANK, SCB: 10 digits
    expect(groupAccountNumber('020123456789')).toBe('020-123-456-789'); // GSB: 12 digits
    expect(groupAccountNumber('0101000123456')).toBe('010-100-012-3456'); // BCEL: 13 digits
    expect(groupAccountNumber('12345678901')).toBe('123-456-789-01'); // 11 digits
  });

  it('regroups what the operator typed with its own separators, so two banks never look different', () => {
    expect(groupAccountNumber('012-3-45678-9')).toBe('012-345-6789');
    expect(groupAccountNumber('020 1234 5678 9')).toBe(groupAccountNumber('0201234567 89'));
  });

  it('leaves a merchant id with letters and a short number as stored', () => {
    expect(groupAccountNumber('WW-MERCHANT-001')).toBe('WW-MERCHANT-001');
    expect(groupAccountNumber('1234')).toBe('1234');
  });
});

describe('copy copies the digits only', () => {
  const entry = (bankCode: string, mode: string, bankAccountNo: string) => ({ bankCode, mode, bankAccountNo, bankAccountName: 'DEMO WALLET' });

  it('a manual account: its digits, whatever separators the operator stored', () => {
    expect(copyTextFor(entry('SCB', 'MANUAL', '406-1-23456-7'), 'SCB')).toBe('4061234567');
    expect(copyTextFor(entry('GSB', 'MANUAL', '0201 2345 6789'), 'GSB')).toBe('020123456789');
  });

  it('KBANK auto: the details, the number in them as digits', () => {
    expect(copyTextFor(entry('KBANK', 'AUTO', '012-3-45678-9'), 'Kasikornbank')).toBe('Kasikornbank\n0123456789\nDEMO WALLET');
  });

  it('a merchant id is not a number: copied as stored', () => {
    expect(accountDigits('WW-MERCHANT-001')).toBe('WW-MERCHANT-001');
  });
});

describe('banksForCurrency: the accounts of the player market, decided by the player currency', () => {
  const banks = [{ code: 'KBANK' }, { code: 'BCEL', currency: 'LAK' }, { code: 'SCB', currency: 'THB' }, { code: 'XX', currency: 'USD' }];
  const codes = (currency: string | undefined) => banksForCurrency(banks, currency).map((b) => b.code);

  it('a baht player sees no LAK account (nor any other foreign one)', () => {
    expect(codes('BAHT')).toEqual(['KBANK', 'SCB']);
  });

  it('a LAK player sees the LAK accounts only', () => {
    expect(codes('LAK')).toEqual(['BCEL']);
  });

  it('before the profile is known, or with no currency, the baht accounts', () => {
    expect(codes(undefined)).toEqual(['KBANK', 'SCB']);
    expect(codes('')).toEqual(['KBANK', 'SCB']);
  });
});

describe('bankDisplayName', () => {
  it('the lookup name asked in the player language comes first (Lao names, methods without gateway codes)', () => {
    expect(bankDisplayName({ nameTH: 'ชำระผ่าน QR (E2P)', nameEN: 'QR payment (E2P)', name: 'QR ພ້ອມເພ ທຸກທະນາຄານ' }, 'la')).toBe('QR ພ້ອມເພ ທຸກທະນາຄານ');
    expect(bankDisplayName({ nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank' }, 'th')).toBe('ธนาคารกสิกรไทย');
    expect(bankDisplayName({ nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank' }, 'la')).toBe('Kasikornbank');
  });
});
