import { readGameAmount, validateTransfer, validateWithdraw, withdrawAllSatang } from './rules';

describe('transfer rules (spec §5)', () => {
  it.each([
    [{ from: '', to: 'pg', amount: '10' }, { key: 'transfer.selectAccount' }],
    [{ from: 'WALLET', to: '', amount: '10' }, { key: 'transfer.selectAccount' }],
    [{ from: 'pg', to: 'pg', amount: '10' }, { key: 'transfer.cannotTransfer' }],
    [{ from: 'WALLET', to: 'pg', amount: '' }, { key: 'wallet.invalidAmount' }],
    [{ from: 'WALLET', to: 'pg', amount: '1.005' }, { key: 'wallet.invalidAmount' }],
    [{ from: 'WALLET', to: 'pg', amount: '0.99' }, { key: 'transfer.minimum', values: { min: 1 } }],
    [{ from: 'WALLET', to: 'pg', amount: '0' }, { key: 'transfer.minimum', values: { min: 1 } }],
  ])('%j is refused with %j', (input, error) => {
    expect(validateTransfer(input, 'en')).toEqual(error);
  });

  it('accepts 1 baht and more between two different accounts', () => {
    expect(validateTransfer({ from: 'WALLET', to: 'pg', amount: '1' }, 'en')).toBeNull();
    expect(validateTransfer({ from: 'pg', to: 'joker2', amount: '1,000.25' }, 'en')).toBeNull();
  });
});

describe('amounts in the player\'s language (issue 40)', () => {
  it('reads a Lao 150,50 as 150.5 baht and 1.000 as a thousand', () => {
    expect(validateTransfer({ from: 'WALLET', to: 'pg', amount: '150,50' }, 'la')).toBeNull();
    expect(readGameAmount('150,50', 'la')).toEqual({ kind: 'amount', amount: 150.5 });
    expect(readGameAmount('1.000', 'la')).toEqual({ kind: 'amount', amount: 1000 });
    expect(validateWithdraw('1.000', { withdrawMin: 1000, withdrawMax: 1000 }, 'la')).toBeNull();
  });
  it('refuses the other language\'s marks with the message that shows how to write the amount', () => {
    const ambiguous = { key: 'wallet.ambiguousAmount', values: { example: '1.030,50', decimal: ',' } };
    expect(validateTransfer({ from: 'WALLET', to: 'pg', amount: '150.50' }, 'la')).toEqual(ambiguous);
    expect(validateWithdraw('1,000.50', { withdrawMin: 1, withdrawMax: 5000 }, 'la')).toEqual(ambiguous);
    expect(readGameAmount('1.000,50', 'th')).toEqual({ kind: 'invalid', error: { key: 'wallet.ambiguousAmount', values: { example: '1,030.50', decimal: '.' } } });
  });
});

describe('withdraw rules (spec §5)', () => {
  const limits = { withdrawMin: 100, withdrawMax: 50000 };
  it('names the bound that was broken', () => {
    expect(validateWithdraw('99.99', limits, 'en')).toEqual({ key: 'withdraw.minimum', values: { min: 100 } });
    expect(validateWithdraw('50000.01', limits, 'en')).toEqual({ key: 'withdraw.maximum', values: { max: 50000 } });
    expect(validateWithdraw('x', limits, 'en')).toEqual({ key: 'wallet.invalidAmount' });
  });
  it('accepts both bounds and what lies between', () => {
    expect(validateWithdraw('100', limits, 'en')).toBeNull();
    expect(validateWithdraw('50000', limits, 'en')).toBeNull();
    expect(validateWithdraw('250.5', limits, 'en')).toBeNull();
  });
});

describe('the withdrawal against the balance (issue 40)', () => {
  const limits = { withdrawMin: 100, withdrawMax: 50000 };
  it('refuses more than the wallet holds, to the satang, before the maximum', () => {
    expect(validateWithdraw('1000.01', limits, 'en', 1000)).toEqual({ key: 'withdraw.overBalance', values: { balance: 1000 } });
    expect(validateWithdraw('60000', limits, 'en', 1000)).toEqual({ key: 'withdraw.overBalance', values: { balance: 1000 } });
    expect(validateWithdraw('1000', limits, 'en', 1000)).toBeNull();
    expect(validateWithdraw('0.3', { withdrawMin: 0.1, withdrawMax: 1 }, 'en', 0.1 + 0.2)).toBeNull();
  });
  it('"withdraw all" is the balance, at most the maximum, in satang', () => {
    expect(withdrawAllSatang(1030.5, limits)).toBe(103050);
    expect(withdrawAllSatang(80000, limits)).toBe(5_000_000);
    expect(withdrawAllSatang(undefined, limits)).toBeNull();
    expect(withdrawAllSatang(10, undefined)).toBeNull();
  });
});

describe('game account amount', () => {
  it('is nothing to transfer when empty or 0 (play skips the transfer, transfer-only focuses the field)', () => {
    expect(readGameAmount('', 'en')).toEqual({ kind: 'none' });
    expect(readGameAmount('  ', 'en')).toEqual({ kind: 'none' });
    expect(readGameAmount('0', 'en')).toEqual({ kind: 'none' });
    expect(readGameAmount('0.00', 'en')).toEqual({ kind: 'none' });
  });
  it('is an amount of at least 1 baht, or a broken rule', () => {
    expect(readGameAmount('100', 'en')).toEqual({ kind: 'amount', amount: 100 });
    expect(readGameAmount('0.5', 'en')).toEqual({ kind: 'invalid', error: { key: 'transfer.minimum', values: { min: 1 } } });
    expect(readGameAmount('abc', 'en')).toEqual({ kind: 'invalid', error: { key: 'wallet.invalidAmount' } });
  });
});
