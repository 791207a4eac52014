import { screen, within } from '@testing-library/react';

import { initialPrefs } from '../../core/prefs';
import { renderWithProviders } from '../../test/support/render';
import { server } from '../../test/support/server';
import DepositModal from './DepositModal';
import { fakeQrServer, playerSession } from '../../test/support/deposit';

/** Issue 40: the QR's custom amount and quick picks in the player's language (Lao: 1.000 and 150,50). */
function openInLao() {
  const fake = fakeQrServer();
  server.use(...fake.handlers);
  const view = renderWithProviders(<DepositModal onClose={jest.fn()} />, {
    preloadedState: { ...playerSession, modals: { stack: ['deposit'] }, prefs: { ...initialPrefs, locale: 'la' } },
  });
  return { ...view, fake };
}

describe('the QR amount in Lao', () => {
  it('creates a QR of 150.5 from 150,50', async () => {
    const { user, fake } = openInLao();
    await user.click(await screen.findByTestId('tab-qr'));
    const kbank = await screen.findByTestId('qr-KBANK');
    await user.type(within(kbank).getByTestId('qr-amount-input'), '150,50');
    await user.click(within(kbank).getByTestId('qr-create'));
    await within(kbank).findByRole('timer');
    expect(fake.calls.post).toEqual([{ bank: 'KBANK', body: { amount: 150.5 } }]);
  });

  it('writes the quick picks in Lao marks and creates what they say', async () => {
    const { user, fake } = openInLao();
    await user.click(await screen.findByTestId('tab-qr'));
    const kbank = await screen.findByTestId('qr-KBANK');
    const pick = within(kbank).getByTestId('qr-pick-1000');
    expect(pick).toHaveTextContent(/^1\.000$/);
    await user.click(pick);
    expect(within(kbank).getByTestId('qr-amount-input')).toHaveValue('1.000');
    expect(pick).toHaveAttribute('aria-pressed', 'true');
    await user.click(within(kbank).getByTestId('qr-create'));
    await within(kbank).findByRole('timer');
    expect(fake.calls.post).toEqual([{ bank: 'KBANK', body: { amount: 1000 } }]);
  });

  it('refuses 150.50 with the translated way to write it and creates nothing', async () => {
    const { user, fake } = openInLao();
    await user.click(await screen.findByTestId('tab-qr'));
    const kbank = await screen.findByTestId('qr-KBANK');
    const field = within(kbank).getByTestId('qr-amount-input');
    await user.type(field, '150.50');
    await user.click(within(kbank).getByTestId('qr-create'));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(expect.stringContaining('1.030,50'));
    expect(fake.calls.post).toEqual([]);
  });
});
