import { walletApi } from '../../core/walletApi';
import { makeStore } from '../../app/store';
import { fromSatang, parseAmountInput, providerCredit, sumSatang, toSatang } from './money';
import { groupGames, selectGameGroups, selectTotalBalance, selectTransferAccounts, totalBalance } from './selectors';
import { slot, walletResponse } from '../../test/support/wallet';

function storeWith(wallet = walletResponse()) {
  const store = makeStore();
  store.dispatch(walletApi.util.upsertQueryEntries([{ endpointName: 'getWallet', arg: undefined, value: wallet }]));
  return store;
}

describe('money in satang', () => {
  it('turns wire baht into integer satang, and anything else into null', () => {
    expect(toSatang(0.29)).toBe(29);
    expect(toSatang(1000)).toBe(100000);
    expect(toSatang(1234567.89)).toBe(123456789);
    expect(toSatang(NaN)).toBeNull();
    expect(toSatang('12')).toBeNull();
    expect(toSatang(undefined)).toBeNull();
  });

  it('sums without float drift: 0.1 + 0.2 is 0.3', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(fromSatang(sumSatang([0.1, 0.2]))).toBe(0.3);
    expect(fromSatang(sumSatang([1000, 100.1, 0.2, 'x', null]))).toBe(1100.3);
  });

  it('computes the provider credit (amount x ftWalletSlot) from satang', () => {
    expect(providerCredit(0.2, 10)).toBe(2);
    expect(providerCredit(100.1, 0.5)).toBe(50.05);
    expect(providerCredit(0.01, 0.5)).toBe(0.005);
    expect(providerCredit('bad', 1)).toBeNull();
    expect(providerCredit(1, undefined)).toBeNull();
  });

  it('reads typed amounts: at most 2 decimals, commas allowed, nothing negative', () => {
    expect(parseAmountInput('100', 'en')).toBe(100);
    expect(parseAmountInput('1,000.50', 'en')).toBe(1000.5);
    expect(parseAmountInput('.5', 'en')).toBe(0.5);
    expect(parseAmountInput('1.', 'en')).toBe(1);
    expect(parseAmountInput('1.234', 'en')).toBeNull();
    expect(parseAmountInput('-5', 'en')).toBeNull();
    expect(parseAmountInput('abc', 'en')).toBeNull();
    expect(parseAmountInput('', 'en')).toBeNull();
    // Lao writes 1.000,50 (issue 40): its 150,50 is 150.5, never 15050.
    expect(parseAmountInput('150,50', 'la')).toBe(150.5);
    expect(parseAmountInput('1.000', 'la')).toBe(1000);
    expect(parseAmountInput('150.50', 'la')).toBeNull();
  });
});

describe('selectTotalBalance', () => {
  it('is null before the wallet has loaded', () => {
    expect(selectTotalBalance(makeStore().getState())).toBeNull();
  });

  it('adds the wallet and every game account, in satang', () => {
    const store = storeWith();
    // 1000 + 0.1 + 0.2 + 0 + 0, where floats give 1000.3000000000001
    expect(1000 + 0.1 + 0.2).not.toBe(1000.3);
    expect(selectTotalBalance(store.getState())).toBe(1000.3);
  });

  it('counts a game amount that is not a number as nothing', () => {
    const wallet = walletResponse({ slots: [slot('pg', { amount: 'n/a' as unknown as number }), slot('joker2', { amount: 0.01 })] });
    expect(totalBalance(wallet)).toBe(1000.01);
  });

  it('is memoized: the same state gives the same result without recomputing', () => {
    const store = storeWith();
    selectTotalBalance.resetRecomputations();
    const state = store.getState();
    selectTotalBalance(state);
    selectTotalBalance(state);
    selectTotalBalance({ ...state, modals: { stack: ['transfer'] } });
    expect(selectTotalBalance.recomputations()).toBe(1);
    store.dispatch(walletApi.util.upsertQueryEntries([{ endpointName: 'getWallet', arg: undefined, value: walletResponse({ wallet: { amount: 5 } }) }]));
    expect(selectTotalBalance(store.getState())).toBe(5.3);
    expect(selectTotalBalance.recomputations()).toBe(2);
  });
});

describe('carousel grouping', () => {
  it('groups by category in the order slot, sport, lotto, leaving out empty ones and keeping the server order', () => {
    const groups = groupGames([
      slot('huayhd', { category: 'lotto' }),
      slot('pg'),
      slot('usun', { category: 'sport' }),
      slot('joker2'),
    ]);
    expect(groups.map((g) => [g.category, g.games.map((game) => game.code)])).toEqual([
      ['slot', ['pg', 'joker2']],
      ['sport', ['usun']],
      ['lotto', ['huayhd']],
    ]);
    expect(groupGames([slot('usun', { category: 'sport' })]).map((g) => g.category)).toEqual(['sport']);
    expect(groupGames([])).toEqual([]);
  });

  it('selectGameGroups is memoized over the slots', () => {
    const store = storeWith();
    const first = selectGameGroups(store.getState());
    expect(selectGameGroups({ ...store.getState(), modals: { stack: ['withdraw'] } })).toBe(first);
    expect(first.map((g) => g.category)).toEqual(['slot', 'sport']);
    expect(selectGameGroups(makeStore().getState())).toEqual([]);
  });
});

describe('transfer accounts', () => {
  it('are the wallet and the open game accounts', () => {
    expect(selectTransferAccounts(storeWith().getState())).toEqual([
      { code: 'WALLET', name: null, amount: 1000 },
      { code: 'pg', name: 'PG Soft', amount: 0.1 },
      { code: 'joker2', name: 'Joker Gaming', amount: 0.2 },
    ]);
  });
});
