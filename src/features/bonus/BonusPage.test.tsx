import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderApp } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';
import { bonus, fakeBonusServer, playerSession, progress } from '../../test/support/bonus';

const DAY = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY).toISOString();

function openPage(fake: ReturnType<typeof fakeBonusServer>, preloadedState = playerSession) {
  server.use(...fake.handlers);
  return renderApp('/user/bonus', { preloadedState });
}

/** A welcome bonus never received, a daily one received today (max 1), a weekly one received 8 days ago. */
const threeBonuses = () => [
  bonus('WELCOME', { type: 'limit', maxReceived: 1, notice: { th: 'th', la: 'la', en: '<p>Fails at %percentFail%% of the start.<script>alert(1)</script></p><img src="x" onerror="alert(2)">' } }),
  bonus('DAILY', { type: 'day', maxReceived: 1, userBonus: { _id: 'ub1', isActive: false, received: [{ updatedAt: new Date().toISOString() }] } }),
  bonus('WEEKLY', { type: 'week', maxReceived: 1, userBonus: { _id: 'ub2', isActive: false, received: [{ updatedAt: daysAgo(8) }] } }),
];

const activeWelcome = () => ({ status: true, type: 'limit' as const, progress: progress() });

describe('bonus screen', () => {
  it('shows the title, the promotion search while no bonus is active, and the cards in their states', async () => {
    openPage(fakeBonusServer({ bonuses: threeBonuses() }));
    expect(await screen.findByTestId('page-title')).toHaveTextContent('Bonus and promotions');
    expect(await screen.findByLabelText('Promotion code')).toBeInTheDocument();
    expect(screen.queryByTestId('bonus-active')).not.toBeInTheDocument();

    const welcome = await screen.findByTestId('bonus-card-WELCOME');
    expect(welcome).toBeEnabled();
    expect(welcome).toHaveTextContent('Bonus WELCOME');
    expect(welcome).toHaveTextContent('Up to 1 time in total');
    expect(welcome.querySelector('img')).toHaveAttribute('src', '/banners/WELCOME.png');
    // Received today, at most once a day: received, cannot be clicked.
    const daily = screen.getByTestId('bonus-card-DAILY');
    expect(daily).toBeDisabled();
    expect(daily).toHaveTextContent('Received');
    // Received last week, once a week: available again.
    expect(screen.getByTestId('bonus-card-WEEKLY')).toBeEnabled();
    expect(screen.getByTestId('bonus-card-WEEKLY')).not.toHaveTextContent('Received');
  });

  it('bonus modal: banners, the notice with %percentFail% replaced and sanitized; receive saves and reloads', async () => {
    const fake = fakeBonusServer({ bonuses: threeBonuses() });
    const { user } = openPage(fake);
    await user.click(await screen.findByTestId('bonus-card-WELCOME'));
    const dialog = await screen.findByRole('dialog', { name: 'Bonus WELCOME' });
    expect(within(dialog).getByText('Fails at 30% of the start.')).toBeInTheDocument();
    expect(dialog.innerHTML).not.toContain('%percentFail%');
    expect(dialog.innerHTML).not.toContain('<script');
    expect(dialog.innerHTML).not.toContain('onerror');
    expect(await within(dialog).findByText('Banner of WELCOME')).toBeInTheDocument();
    expect(dialog).toHaveTextContent('50% up to 500.00 baht');

    const lists = fake.calls.list;
    const actives = fake.calls.active;
    await user.click(within(dialog).getByRole('button', { name: 'Receive' }));
    const saved = await within(dialog).findByTestId('bonus-saved');
    // Issue 40 item 11: the amount credited (the activation's answer), not a bare "saved".
    expect(saved).toHaveTextContent('Bonus received');
    expect(saved).toHaveTextContent('250.00 baht bonus was added to your wallet.');
    expect(saved).not.toHaveTextContent('Saved');
    expect(within(dialog).getByRole('button', { name: 'OK' })).toHaveFocus();
    expect(fake.calls.activate).toEqual(['WELCOME']);
    await waitFor(() => expect(fake.calls.list).toBe(lists + 1));
    await waitFor(() => expect(fake.calls.active).toBe(actives + 1));
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Now the active one: the current marker, and the panel instead of the promotion search.
    expect(await screen.findByTestId('bonus-active')).toHaveTextContent('Limited bonus');
    expect(screen.getByTestId('bonus-card-WELCOME')).toHaveTextContent('Current');
    expect(screen.queryByLabelText('Promotion code')).not.toBeInTheDocument();
  });

  it('bonus modal: an activation failure shows an error alert with the error text, no toast', async () => {
    const fake = fakeBonusServer({ bonuses: threeBonuses() });
    fake.refuseNext('activate', 422, 'BONUS_MAX_CLAIMED');
    const { user } = openPage(fake);
    await user.click(await screen.findByTestId('bonus-card-WEEKLY'));
    const dialog = await screen.findByRole('dialog', { name: 'Bonus WEEKLY' });
    await user.click(within(dialog).getByRole('button', { name: 'Receive' }));
    const alert = await within(dialog).findByTestId('bonus-failed');
    expect(alert).toHaveRole('alert');
    expect(alert).toHaveTextContent('Error');
    expect(alert).toHaveTextContent('You have reached the limit for this bonus.');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    // It may be tried again.
    expect(within(dialog).getByRole('button', { name: 'Receive' })).toBeEnabled();
  });

  it('active bonus: its type, the current marker, OK instead of receive, and the progress', async () => {
    const bonuses = threeBonuses();
    bonuses[0] = { ...bonuses[0], userBonus: { _id: 'ub0', isActive: true, received: [{ updatedAt: daysAgo(0) }] } };
    const { user } = openPage(fakeBonusServer({ bonuses, active: activeWelcome() }));
    const panel = await screen.findByTestId('bonus-active');
    expect(within(panel).getByTestId('bonus-active-type')).toHaveTextContent('Limited bonus: Welcome bonus');
    expect(within(panel).getByRole('button', { name: 'Cancel bonus' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Promotion code')).not.toBeInTheDocument();

    const bar = within(panel).getByRole('progressbar', { name: 'Turnover' });
    expect(bar).toHaveAttribute('aria-valuemin', '0');
    expect(bar).toHaveAttribute('aria-valuemax', '5000');
    expect(bar).toHaveAttribute('aria-valuenow', '1250');
    expect(bar).toHaveAttribute('aria-valuetext', '1,250.00 of 5,000.00 baht (25%)');
    expect(within(panel).getByTestId('bonus-turnover')).toHaveTextContent('1,250.00 / 5,000.00 baht (25%)');
    expect(within(panel).getByTestId('bonus-fail-line')).toHaveTextContent('a total balance of 225.00 baht or less (30% of the starting 750.00 baht)');
    const ends = within(within(panel).getByTestId('bonus-ends')).getAllByRole('listitem');
    expect(ends.map((item) => item.textContent)).toEqual([
      'the turnover reaches 5,000.00 baht: the bonus is finished;',
      'your total balance (wallet and game accounts) falls to 225.00 baht or less: the bonus fails;',
      'you cancel it: what remains of the bonus is taken back.',
    ]);

    const card = screen.getByTestId('bonus-card-WELCOME');
    expect(card).toHaveTextContent('Current');
    expect(card).toHaveAttribute('aria-current', 'true');
    await user.click(card);
    const dialog = await screen.findByRole('dialog', { name: 'Bonus WELCOME' });
    expect(within(dialog).queryByRole('button', { name: 'Receive' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('progress follows each wallet refresh', async () => {
    const fake = fakeBonusServer({ bonuses: threeBonuses(), active: activeWelcome() });
    const { user } = openPage(fake);
    const bar = await screen.findByRole('progressbar', { name: 'Turnover' });
    expect(bar).toHaveAttribute('aria-valuenow', '1250');
    fake.setTurnover(6000);
    await user.click(screen.getByRole('button', { name: 'Refresh progress' }));
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Turnover' })).toHaveAttribute('aria-valuenow', '5000'));
    expect(fake.calls.refresh).toBe(1);
    expect(screen.getByTestId('bonus-turnover')).toHaveTextContent('5,000.00 / 5,000.00 baht (100%)');
  });

  it('cancel: the confirm dialog first; declining sends nothing; confirming clears, toasts and reloads', async () => {
    const fake = fakeBonusServer({ bonuses: threeBonuses(), active: activeWelcome() });
    const { user, store } = openPage(fake);
    await user.click(await screen.findByRole('button', { name: 'Cancel bonus' }));
    let confirm = await screen.findByRole('dialog', { name: 'Cancel the bonus?' });
    expect(store.getState().modals.stack).toEqual(['bonusCancelConfirm']);
    await user.click(within(confirm).getByRole('button', { name: 'Keep the bonus' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(fake.calls.clear).toBe(0);
    expect(store.getState().modals.stack).toEqual([]);

    const lists = fake.calls.list;
    await user.click(screen.getByRole('button', { name: 'Cancel bonus' }));
    confirm = await screen.findByRole('dialog', { name: 'Cancel the bonus?' });
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel it' }));
    expect(await screen.findByText('The bonus has been cancelled.')).toBeInTheDocument();
    expect(fake.calls.clear).toBe(1);
    expect(await screen.findByLabelText('Promotion code')).toBeInTheDocument();
    await waitFor(() => expect(fake.calls.list).toBe(lists + 1));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('cancel: a failure shows a danger dialog with the error', async () => {
    const fake = fakeBonusServer({ bonuses: threeBonuses(), active: activeWelcome() });
    fake.refuseNext('clear', 500, 'INTERNAL_SERVER_ERROR');
    const { user, store } = openPage(fake);
    await user.click(await screen.findByRole('button', { name: 'Cancel bonus' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Cancel the bonus?' })).getByRole('button', { name: 'Yes, cancel it' }));
    const danger = await screen.findByRole('dialog', { name: 'The bonus was not cancelled' });
    expect(within(danger).getByRole('alert')).toHaveTextContent('A server error occurred. Please try again later.');
    expect(within(danger).getByRole('alert')).toHaveClass('alert--error');
    expect(screen.queryByRole('dialog', { name: 'Cancel the bonus?' })).not.toBeInTheDocument();
    expect(store.getState().modals.stack).toEqual(['bonusCancelFailed']);
    await user.click(within(danger).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Still active.
    expect(screen.getByTestId('bonus-active')).toBeInTheDocument();
  });

  it('asks again on every visit: play may have moved or finished the bonus meanwhile', async () => {
    serveUserArea();
    const fake = fakeBonusServer({ bonuses: threeBonuses(), active: activeWelcome() });
    const { router } = openPage(fake);
    await screen.findByRole('progressbar', { name: 'Turnover' });
    const before = { list: fake.calls.list, active: fake.calls.active };
    await act(() => router.navigate('/user/profile'));
    await waitFor(() => expect(screen.getByTestId('page-title')).toHaveTextContent('Profile'));
    fake.setTurnover(2500);
    await act(() => router.navigate('/user/bonus'));
    await waitFor(() => expect(screen.getByRole('progressbar', { name: 'Turnover' })).toHaveAttribute('aria-valuenow', '2500'));
    expect(fake.calls.active).toBe(before.active + 1);
    expect(fake.calls.list).toBe(before.list + 1);
  });

  it('hides a failed list load silently (no toast, no loader)', async () => {
    const fake = fakeBonusServer();
    server.use(...fake.handlers, http.get('/api/bonus', () => errorResponse('INTERNAL_SERVER_ERROR', 500)));
    renderApp('/user/bonus', { preloadedState: playerSession });
    expect(await screen.findByLabelText('Promotion code')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('page-title').closest('section')).toHaveAttribute('aria-busy', 'false'));
    expect(screen.queryByTestId('bonus-list-loading')).not.toBeInTheDocument();
    expect(screen.queryByTestId('bonus-grid')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('reads in Thai and Lao', async () => {
    openPage(fakeBonusServer({ bonuses: threeBonuses() }), { ...playerSession, prefs: { ...initialPrefs, locale: 'th' } } as typeof playerSession);
    expect(await screen.findByTestId('bonus-card-DAILY')).toHaveTextContent('รับแล้ว');
    expect(screen.getByTestId('bonus-card-WELCOME')).toHaveTextContent('Bonus WELCOME (th)');
  });
});

describe('promotion search', () => {
  const promotion = { code: 'WELCOME50', percentFail: 40, description: { th: 'th', la: 'la', en: '<p>Half again on your deposit</p><script>x()</script>' } };

  it('forces the code to upper case; searching, then the promotion; receive closes the modal and reloads', async () => {
    const fake = fakeBonusServer({ bonuses: threeBonuses(), promotions: [promotion] });
    const release = fake.holdFind();
    const { user } = openPage(fake);
    const input = await screen.findByLabelText('Promotion code');
    await user.type(input, 'welcome50');
    expect(input).toHaveValue('WELCOME50');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Promotion' });
    expect(within(dialog).getByTestId('promotion-searching')).toHaveTextContent('Searching for the promotion…');
    expect(within(dialog).queryByRole('button', { name: 'Receive' })).not.toBeInTheDocument();
    release();
    expect(await within(dialog).findByTestId('promotion-percent-fail')).toHaveTextContent('Fails at 40% of the starting amount');
    expect(dialog).toHaveTextContent('Half again on your deposit');
    expect(dialog.innerHTML).not.toContain('<script');
    expect(fake.calls.find).toEqual(['WELCOME50']);

    const lists = fake.calls.list;
    await user.click(within(dialog).getByRole('button', { name: 'Receive' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fake.calls.promote).toEqual(['WELCOME50']);
    expect(await screen.findByText('The promotion is active: 250.00 baht bonus was added to your wallet.')).toBeInTheDocument();
    await waitFor(() => expect(fake.calls.list).toBe(lists + 1));
    expect(await screen.findByTestId('bonus-active-type')).toHaveTextContent('Promotion code');
  });

  it('upper-cases a pasted lower-case code before the call too', async () => {
    const fake = fakeBonusServer({ promotions: [promotion] });
    const { user } = openPage(fake);
    const input = await screen.findByLabelText('Promotion code');
    input.focus();
    await user.paste('  welcome50 ');
    await user.keyboard('{Enter}');
    await screen.findByTestId('promotion-percent-fail');
    expect(fake.calls.find).toEqual(['WELCOME50']);
  });

  it('says when nothing is found, and asks for a code when there is none', async () => {
    const fake = fakeBonusServer();
    const { user } = openPage(fake);
    await user.click(await screen.findByRole('button', { name: 'Search' }));
    expect(screen.getByLabelText('Promotion code')).toHaveAccessibleDescription('Please enter a promotion code.');
    expect(screen.getByLabelText('Promotion code')).toHaveFocus();
    expect(fake.calls.find).toEqual([]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Promotion code'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Promotion' });
    expect(await within(dialog).findByTestId('promotion-not-found')).toHaveTextContent('No promotion was found for this code.');
    expect(within(dialog).queryByRole('button', { name: 'Receive' })).not.toBeInTheDocument();
    expect(fake.calls.find).toEqual(['NOPE']);
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows an activation failure in an error alert with the error text', async () => {
    const fake = fakeBonusServer({ promotions: [promotion] });
    fake.refuseNext('promote', 409, 'PROMOTION_RECEIVED');
    const { user } = openPage(fake);
    await user.type(await screen.findByLabelText('Promotion code'), 'WELCOME50');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Promotion' });
    await user.click(await within(dialog).findByRole('button', { name: 'Receive' }));
    const alert = await within(dialog).findByTestId('promotion-receive-failed');
    expect(alert).toHaveRole('alert');
    expect(alert).toHaveTextContent('You have already received this promotion.');
    expect(screen.getByRole('dialog', { name: 'Promotion' })).toBeInTheDocument();
  });

  it('a search that fails for another reason says so and may be tried again', async () => {
    const fake = fakeBonusServer({ promotions: [promotion] });
    let first = true;
    server.use(...fake.handlers);
    server.use(
      http.get('/api/promotion/find/:code', () => {
        if (first) {
          first = false;
          return HttpResponse.error();
        }
        return HttpResponse.json(promotion);
      }),
    );
    const { user } = renderApp('/user/bonus', { preloadedState: playerSession });
    await user.type(await screen.findByLabelText('Promotion code'), 'WELCOME50');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    const dialog = await screen.findByRole('dialog', { name: 'Promotion' });
    expect(await within(dialog).findByTestId('promotion-search-failed')).toHaveTextContent('Cannot reach the server.');
    await user.click(within(dialog).getByRole('button', { name: 'Try again' }));
    expect(await within(dialog).findByTestId('promotion-percent-fail')).toBeInTheDocument();
  });
});
