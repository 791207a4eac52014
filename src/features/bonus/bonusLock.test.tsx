/**
 * Issue 40 item 3: the bonus and promotion modals say, before the player receives, that receiving locks
 * withdrawals until the turnover is reached (with the target a bonus's terms give) and that cancelling takes the
 * bonus back; another bonus already active shows its own lock there.
 */
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { renderApp } from '../../test/support/render';
import { server } from '../../test/support/server';
import { bonus, fakeBonusServer, playerSession, progress } from '../../test/support/bonus';

function openPage(fake: ReturnType<typeof fakeBonusServer>, wallet = 1000) {
  server.use(
    ...fake.handlers,
    http.get('/api/wallet', () =>
      HttpResponse.json({
        profile: { name: 'Demo', username: '0812345678', _id: '1', coin: 0 },
        bankAccount: null,
        wallet: { amount: wallet },
        invite: { amount: 0, success: 0, fail: 0 },
        slots: [],
      }),
    ),
  );
  return renderApp('/user/bonus', { preloadedState: playerSession });
}

describe('before receiving a bonus', () => {
  it('the bonus modal names the turnover that receiving it would lock withdrawals behind, and that cancelling takes it back', async () => {
    // 10% of 1,000 is 100; (1,000 + 100) x 0.1 = 110.
    const fake = fakeBonusServer({ bonuses: [bonus('QUICK', { percent: 10, cap: 500, turnoverMultiple: 0.1 })] });
    const { user } = openPage(fake);
    await user.click(await screen.findByTestId('bonus-card-QUICK'));
    const dialog = await screen.findByRole('dialog', { name: 'Bonus QUICK' });
    const note = await within(dialog).findByTestId('bonus-receive-lock');
    expect(note).toHaveTextContent('Receiving it locks withdrawals until 110.00 baht has been wagered. Cancelling it takes the bonus back.');
    // Said before the receive button, in reading order.
    expect(note.compareDocumentPosition(within(dialog).getByRole('button', { name: 'Receive' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('the bonus modal shows the lock of a bonus already active instead', async () => {
    const fake = fakeBonusServer({
      bonuses: [bonus('WELCOME'), bonus('OTHER', { type: 'week' })],
      active: { status: true, type: 'limit', progress: progress({ code: 'WELCOME' }) },
    });
    const { user } = openPage(fake);
    await user.click(await screen.findByTestId('bonus-card-OTHER'));
    const dialog = await screen.findByRole('dialog', { name: 'Bonus OTHER' });
    const lock = await within(dialog).findByTestId('bonus-modal-lock');
    expect(within(lock).getByRole('progressbar', { name: 'Turnover of Welcome bonus' })).toHaveAttribute('aria-valuenow', '1250');
    expect(lock).toHaveTextContent('Left to wager before you can withdraw: 3,750.00 baht');
    expect(within(dialog).queryByTestId('bonus-receive-lock')).not.toBeInTheDocument();
  });

  it('the promotion modal says that receiving the code locks withdrawals until its turnover is reached', async () => {
    const fake = fakeBonusServer({ promotions: [{ code: 'WELCOME50', percentFail: 40, description: { th: 'th', la: 'la', en: '<p>Half again</p>' } }] });
    const { user } = openPage(fake);
    await user.type(await screen.findByLabelText('Promotion code'), 'welcome50');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Promotion' });
    const note = await within(dialog).findByTestId('promotion-receive-lock');
    expect(note).toHaveTextContent('Receiving it locks withdrawals until its turnover is reached. Cancelling it takes the bonus back.');
    expect(note.compareDocumentPosition(within(dialog).getByRole('button', { name: 'Receive' })) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
