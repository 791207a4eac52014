/**
 * Issue 40 item 1: every amount field of the wallet reads amounts in the player's language. A Lao player writes
 * 150,50 (decimal comma, dot between thousands), as the Lao screens write amounts.
 */
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { useGetWalletQuery } from '../../core/walletApi';
import { initialPrefs } from '../../core/prefs';
import type { Locale } from '../../lib/locale';
import { renderWithProviders } from '../../test/support/render';
import { server } from '../../test/support/server';
import { GameAccountModal } from './GameAccountModal';
import { serveWallet, walletResponse } from '../../test/support/wallet';
import { TransferModal } from './TransferModal';
import { WithdrawModal } from './WithdrawModal';

const inLanguage = (locale: Locale) => ({ preloadedState: { prefs: { ...initialPrefs, locale } } });

/** Records the bodies of POST `path`, answering a success. */
function record(path: string) {
  const sent: unknown[] = [];
  server.use(
    http.get('/api/lookup/withdraw', () => HttpResponse.json({ withdrawMin: 100, withdrawMax: 50000 })),
    http.post(path, async ({ request }) => {
      sent.push(await request.json());
      return HttpResponse.json({ status: 'IN_PROGRESS', message: 'WITHDRAW_IN_PROGRESS', withdrawalId: 'w1', transferId: 't1', amount: 1 });
    }),
  );
  return sent;
}

function Withdraw() {
  const { data } = useGetWalletQuery();
  return data ? <WithdrawModal onClose={() => {}} /> : null;
}
function Transfer() {
  const { data } = useGetWalletQuery();
  return data ? <TransferModal onClose={() => {}} initialTo="pg" /> : null;
}
function Game() {
  const { data } = useGetWalletQuery();
  return data ? <GameAccountModal code="pg" onClose={() => {}} /> : null;
}

describe('withdraw amount', () => {
  it.each<[Locale, string]>([
    ['la', '150,50'],
    ['th', '150.50'],
    ['en', '150.50'],
  ])('in %s %p sends 150.5', async (locale, typed) => {
    serveWallet();
    const sent = record('/api/wallet/withdrawAll');
    const { user } = renderWithProviders(<Withdraw />, inLanguage(locale));
    await user.type(await screen.findByTestId('withdraw-amount'), typed);
    await user.click(screen.getByTestId('withdraw-submit'));
    await user.click(await screen.findByTestId('withdraw-confirm'));
    await screen.findByTestId('receipt');
    expect(sent).toEqual([{ amount: 150.5 }]);
  });

  it('in Lao reads 1.000 as one thousand', async () => {
    serveWallet();
    const sent = record('/api/wallet/withdrawAll');
    const { user } = renderWithProviders(<Withdraw />, inLanguage('la'));
    await user.type(await screen.findByTestId('withdraw-amount'), '1.000');
    await user.click(screen.getByTestId('withdraw-submit'));
    await user.click(await screen.findByTestId('withdraw-confirm'));
    await screen.findByTestId('receipt');
    expect(sent).toEqual([{ amount: 1000 }]);
  });

  it('in Lao refuses 150.50 with a translated message naming how to write it, and sends nothing', async () => {
    serveWallet();
    const sent = record('/api/wallet/withdrawAll');
    const { user } = renderWithProviders(<Withdraw />, inLanguage('la'));
    const field = await screen.findByTestId('withdraw-amount');
    await user.type(field, '150.50');
    await user.click(screen.getByTestId('withdraw-submit'));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining('1.030,50'));
    expect(sent).toEqual([]);
  });

  it('in Lao shows the limits hint in Lao marks', async () => {
    serveWallet();
    record('/api/wallet/withdrawAll');
    renderWithProviders(<Withdraw />, inLanguage('la'));
    expect(await screen.findByText('ຂັ້ນຕ່ຳ 100,00 ສູງສຸດ 50.000,00 ບາດ')).toBeInTheDocument();
  });
});

describe('transfer amount', () => {
  it('in Lao sends 150,50 as 150.5', async () => {
    serveWallet();
    const sent = record('/api/wallet/transfer');
    const { user } = renderWithProviders(<Transfer />, inLanguage('la'));
    await user.type(await screen.findByTestId('transfer-amount'), '150,50');
    await user.click(screen.getByTestId('transfer-submit'));
    await screen.findByTestId('receipt');
    expect(sent).toEqual([{ from: 'WALLET', to: 'pg', amount: 150.5 }]);
  });

  it("in Lao, All from a game fills its balance in Lao marks and sends that amount", async () => {
    serveWallet(() => walletResponse({ slots: [...walletResponse().slots.map((s) => (s.code === 'joker2' ? { ...s, amount: 1030.5 } : s))] }));
    const sent = record('/api/wallet/transfer');
    const { user } = renderWithProviders(<Transfer />, inLanguage('la'));
    await user.selectOptions(await screen.findByTestId('transfer-from'), 'joker2');
    await user.click(screen.getByTestId('transfer-all'));
    expect(screen.getByTestId('transfer-amount')).toHaveValue('1.030,50');
    await user.click(screen.getByTestId('transfer-submit'));
    await screen.findByTestId('receipt');
    expect(sent).toEqual([{ from: 'joker2', to: 'pg', amount: 1030.5 }]);
  });

  it('in Lao, All from the wallet shows the whole balance in Lao marks', async () => {
    serveWallet(() => walletResponse({ wallet: { amount: 1030 } }));
    record('/api/wallet/transferAll');
    const { user } = renderWithProviders(<Transfer />, inLanguage('la'));
    await user.click(await screen.findByTestId('transfer-all'));
    expect(screen.getByTestId('transfer-amount')).toHaveValue('1.030');
  });

  it('in Thai refuses 1.000,50 (marks in the wrong roles)', async () => {
    serveWallet();
    const sent = record('/api/wallet/transfer');
    const { user } = renderWithProviders(<Transfer />, inLanguage('th'));
    const field = await screen.findByTestId('transfer-amount');
    await user.type(field, '1.000,50');
    await user.click(screen.getByTestId('transfer-submit'));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining('1,030.50'));
    expect(sent).toEqual([]);
  });
});

describe('game account amount', () => {
  it("in Lao 'transfer only' sends 150,50 as 150.5", async () => {
    serveWallet();
    const sent = record('/api/wallet/transfer');
    server.use(http.get('/api/wallet/account/:code', () => HttpResponse.json({ username: 'pw1', password: 'secret' })));
    const { user } = renderWithProviders(<Game />, inLanguage('la'));
    await screen.findByTestId('game-username');
    await user.type(screen.getByTestId('game-amount'), '150,50');
    await user.click(screen.getByTestId('game-transfer-only'));
    const receipt = await screen.findByTestId('receipt');
    expect(within(receipt).getByTestId('receipt-amount')).toBeInTheDocument();
    expect(sent).toEqual([{ from: 'WALLET', to: 'pg', amount: 150.5 }]);
  });
});
