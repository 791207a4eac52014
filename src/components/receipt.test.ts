import { makeStore } from '../app/store';
import { walletApi, type WalletResponse } from '../core/walletApi';
import { receiptAccountName, receiptFromMove, receiptFromStatement, receiptKind, receiptStatus, selectAccountNames, type AccountNames } from './receipt';

const wallet: WalletResponse = {
  profile: { name: 'Somchai', username: '0812345678', _id: '1', coin: 0 },
  bankAccount: { bankAccountName: 'SOMCHAI JAIDEE', bankAccountNo: '111-222-3334', bankCode: 'KBANK', bank: { nameTH: 'กสิกรไทย', nameEN: 'Kasikorn Bank' } },
  wallet: { amount: 10 },
  invite: { amount: 0, success: 0, fail: 0 },
  slots: [
    { code: 'pg', name: 'PG Soft', category: 'slot', isActive: true, amount: 1, ftWalletSlot: 1, logo: '', background: '', web: null, android: null, ios: null },
    { code: 'usun', name: 'USUN Sport', category: 'sport', isActive: false, amount: 0, ftWalletSlot: 1, logo: '', background: '', web: null, android: null, ios: null },
  ],
};
const AT = '2026-11-26T10:00:00.000Z';

describe('receipts', () => {
  it('of a transfer: the accounts asked for, the amount and id the server answered', () => {
    expect(receiptFromMove('transfer', { from: 'WALLET', to: 'pg' }, { status: 'SUCCESS', amount: 1000.5, transferId: 't9', withdrawalId: 'x' }, AT)).toEqual({
      kind: 'transfer',
      amount: 1000.5,
      from: 'WALLET',
      to: 'pg',
      at: AT,
      reference: 't9',
      status: 'SUCCESS',
    });
  });

  it('of a withdrawal: the withdrawal id; no id answered leaves the reference empty', () => {
    expect(receiptFromMove('withdraw', { from: 'WALLET', to: 'KBANK' }, { status: 'IN_PROGRESS', amount: 200, withdrawalId: 'w1', transferId: 't' }, AT).reference).toBe('w1');
    expect(receiptFromMove('transfer', { from: 'pg', to: 'WALLET' }, { status: 'IN_PROGRESS', amount: 5 }, AT).reference).toBe('');
  });

  it('from a statement line: the movement reference, else the line id', () => {
    const line = { _id: '42', statementType: 'transfer', status: 'SUCCESS', from: 'WALLET', to: 'pg', amount: 100, createdAt: AT };
    expect(receiptFromStatement({ ...line, reference: 't9' })).toEqual({ kind: 'transfer', amount: 100, from: 'WALLET', to: 'pg', at: AT, reference: 't9', status: 'SUCCESS' });
    expect(receiptFromStatement(line).reference).toBe('42');
    expect(receiptFromStatement({ ...line, reference: '' }).reference).toBe('42');
  });

  it('the same movement reads the same right after it and from the statement', () => {
    const now = receiptFromMove('transfer', { from: 'WALLET', to: 'pg' }, { status: 'SUCCESS', amount: 100, transferId: 't9' }, AT);
    const later = receiptFromStatement({ _id: '42', statementType: 'transfer', status: 'SUCCESS', from: 'WALLET', to: 'pg', amount: 100, createdAt: AT, reference: 't9' });
    expect(later).toEqual(now);
  });

  it('names kinds and statuses, unknown ones as a transaction in progress', () => {
    expect(['transfer', 'withdraw', 'deposit', 'bonus', 'finish_bonus'].map(receiptKind)).toEqual(['transfer', 'withdraw', 'deposit', 'other', 'other']);
    expect(['SUCCESS', 'FAILED', 'IN_PROGRESS', 'PENDING'].map(receiptStatus)).toEqual(['success', 'failed', 'inProgress', 'inProgress']);
  });
});

describe('account names on receipts', () => {
  it('selects the game names and the player bank from the loaded wallet; nothing before it loads', async () => {
    const store = makeStore();
    expect(selectAccountNames(store.getState())).toEqual({ games: {}, bank: null });
    await store.dispatch(walletApi.util.upsertQueryData('getWallet', undefined, wallet));
    const names = selectAccountNames(store.getState());
    expect(names).toEqual({
      games: { pg: 'PG Soft', usun: 'USUN Sport' },
      bank: { code: 'KBANK', nameTH: 'กสิกรไทย', nameEN: 'Kasikorn Bank', accountNo: '111-222-3334' },
    });
    // Memoised: the same wallet gives the same object, so the receipt does not re-render for nothing.
    expect(selectAccountNames(store.getState())).toBe(names);
  });

  it('reads a code as a translated account, a game, the player bank with its last digits, or the code', () => {
    const names: AccountNames = { games: { pg: 'PG Soft' }, bank: { code: 'KBANK', nameTH: 'กสิกรไทย', nameEN: 'Kasikorn Bank', accountNo: '111-222-3334' } };
    const known = (code: string) => ({ WALLET: 'Wallet', BONUS: 'Bonus' })[code] ?? null;
    expect(receiptAccountName('WALLET', names, 'en', known)).toBe('Wallet');
    expect(receiptAccountName('pg', names, 'th', known)).toBe('PG Soft');
    expect(receiptAccountName('KBANK', names, 'en', known)).toBe('Kasikorn Bank ···3334');
    expect(receiptAccountName('KBANK', names, 'th', known)).toBe('กสิกรไทย ···3334');
    expect(receiptAccountName('SCB', names, 'en', known)).toBe('SCB');
    expect(receiptAccountName('joker2', { games: {}, bank: null }, 'en', known)).toBe('joker2');
  });
});
