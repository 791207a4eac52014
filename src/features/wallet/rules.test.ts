import { readGameAmount, validateTransfer, validateWithdraw } from './rules';

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
    expect(validateTransfer(input)).toEqual(error);
  });

  it('accepts 1 baht and more between two different accounts', () => {
    expect(validateTransfer({ from: 'WALLET', to: 'pg', amount: '1' })).toBeNull();
    expect(validateTransfer({ from: 'pg', to: 'joker2', amount: '1,000.25' })).toBeNull();
  });
});

describe('withdraw rules (spec §5)', () => {
  const limits = { withdrawMin: 100, withdrawMax: 50000 };
  it('names the bound that was broken', () => {
    expect(validateWithdraw('99.99', limits)).toEqual({ key: 'withdraw.minimum', values: { min: 100 } });
    expect(validateWithdraw('50000.01', limits)).toEqual({ key: 'withdraw.maximum', values: { max: 50000 } });
    expect(validateWithdraw('x', limits)).toEqual({ key: 'wallet.invalidAmount' });
  });
  it('accepts both bounds and what lies between', () => {
    expect(validateWithdraw('100', limits)).toBeNull();
    expect(validateWithdraw('50000', limits)).toBeNull();
    expect(validateWithdraw('250.5', limits)).toBeNull();
  });
});

describe('game account amount', () => {
  it('is nothing to transfer when empty or 0 (play skips the transfer, transfer-only focuses the field)', () => {
    expect(readGameAmount('')).toEqual({ kind: 'none' });
    expect(readGameAmount('  ')).toEqual({ kind: 'none' });
    expect(readGameAmount('0')).toEqual({ kind: 'none' });
    expect(readGameAmount('0.00')).toEqual({ kind: 'none' });
  });
  it('is an amount of at least 1 baht, or a broken rule', () => {
    expect(readGameAmount('100')).toEqual({ kind: 'amount', amount: 100 });
    expect(readGameAmount('0.5')).toEqual({ kind: 'invalid', error: { key: 'transfer.minimum', values: { min: 1 } } });
    expect(readGameAmount('abc')).toEqual({ kind: 'invalid', error: { key: 'wallet.invalidAmount' } });
  });
});
