import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import { http } from 'msw';

import { useGetWalletQuery } from '../../core/walletApi';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import SpinWheelModal from './SpinWheelModal';
import { coupon, fakeWheelServer, recordCanvas, setReducedMotion } from '../../test/support/wheel';

const session = { session: { token: 'tok-1', remember: false, login: { status: 'loggedIn' as const } } };

let canvas: ReturnType<typeof recordCanvas>;
beforeEach(() => {
  canvas = recordCanvas();
  setReducedMotion(true);
});
afterEach(() => {
  canvas.restore();
  setReducedMotion(null);
});

/** The wallet as the home screen behind the modal keeps it loaded. */
function WalletOnScreen() {
  useGetWalletQuery();
  return null;
}

function openWheel(fake = fakeWheelServer()) {
  const view = renderWithProviders(
    <>
      <WalletOnScreen />
      <SpinWheelModal onClose={() => undefined} />
    </>,
    { preloadedState: { ...session, modals: { stack: ['spinWheel'] } } },
  );
  return { ...view, fake };
}

const many = (count: number) => Array.from({ length: count }, (_, i) => coupon(`c-${i + 1}`));

describe('coupon list', () => {
  it('shows 3 coupons a page with the pagination window (3 before, 1 after)', async () => {
    const { user, fake } = openWheel(fakeWheelServer({ coupons: many(20) }));
    const list = await screen.findByRole('region', { name: 'My coupons' });
    await waitFor(() => expect(within(list).getAllByTestId('coupon')).toHaveLength(3));
    expect(fake.calls.coupons[0]).toEqual({ page: 1, limit: 3 });
    const first = within(list).getAllByTestId('coupon')[0];
    expect(first).toHaveTextContent('Cash prize c-1');
    expect(first).toHaveTextContent('50 baht');
    expect(first).toHaveTextContent('50.00 baht');
    expect(first).toHaveTextContent(/Ready to claim · use by 03\/12\/2026 \d\d:06:07/);
    const pages = within(list).getByRole('navigation', { name: 'Coupon pages' });
    const numbers = () => within(pages).getAllByRole('button', { name: /^Page/ }).map((button) => button.textContent);
    expect(numbers()).toEqual(['1', '2']);
    for (const page of [2, 3, 4, 5]) await user.click(within(pages).getByRole('button', { name: `Page ${page}` }));
    await waitFor(() => expect(numbers()).toEqual(['2', '3', '4', '5', '6']));
    await waitFor(() => expect(within(list).getAllByTestId('coupon')[0]).toHaveTextContent('Cash prize c-13'));
    await user.click(within(pages).getByRole('button', { name: 'Page 6' }));
    await user.click(within(pages).getByRole('button', { name: 'Page 7' }));
    await waitFor(() => expect(within(list).getAllByTestId('coupon')).toHaveLength(2));
    expect(numbers()).toEqual(['4', '5', '6', '7']);
    expect(within(pages).getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(fake.calls.coupons[fake.calls.coupons.length - 1]).toEqual({ page: 7, limit: 3 });
  });

  it('offers a claim only for claimable prizes; coins are counted as coins', async () => {
    openWheel(
      fakeWheelServer({
        coupons: [coupon('c-1', { status: 'CLAIMED' }), coupon('c-2', { status: 'EXPIRED' }), coupon('c-3', { type: 'coin', amount: 2 })],
      }),
    );
    const rows = await screen.findAllByTestId('coupon');
    expect(rows[0]).toHaveTextContent('Claimed');
    expect(rows[1]).toHaveTextContent('Expired');
    expect(rows[2]).toHaveTextContent('2 coins');
    expect(within(rows[0]).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[1]).queryByRole('button')).not.toBeInTheDocument();
    expect(within(rows[2]).getByRole('button', { name: 'Claim Cash prize c-3' })).toHaveTextContent('Claim');
  });

  it('claims after a confirm dialog: the wallet, the setup and the list reload', async () => {
    const { user, fake } = openWheel(fakeWheelServer({ coupons: [coupon('c-1')] }));
    const claim = await screen.findByRole('button', { name: 'Claim Cash prize c-1' });

    // Declined: nothing is sent.
    await user.click(claim);
    let dialog = await screen.findByRole('dialog', { name: 'Claim coupon' });
    expect(dialog).toHaveTextContent('Claim Cash prize c-1 now?');
    expect(dialog).toHaveTextContent('50.00 baht');
    await user.click(within(dialog).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('dialog', { name: 'Claim coupon' })).not.toBeInTheDocument();
    expect(fake.calls.claims).toEqual([]);
    expect(claim).toHaveFocus();

    await waitFor(() => expect(fake.calls.wallet).toBe(1));
    const setups = fake.calls.setup;
    const lists = fake.calls.coupons.length;
    await user.click(claim);
    dialog = await screen.findByRole('dialog', { name: 'Claim coupon' });
    await user.click(within(dialog).getByRole('button', { name: 'Claim' }));
    const done = await within(dialog).findByTestId('claim-done');
    expect(done).toHaveTextContent('Coupon claimed');
    expect(done).toHaveTextContent('50.00 baht was added to your wallet.');
    expect(within(dialog).getByRole('button', { name: 'OK' })).toHaveFocus();
    expect(fake.calls.claims).toEqual([{ couponId: 'c-1' }]);
    expect(fake.balance).toBe(1050);
    await waitFor(() => expect(fake.calls.wallet).toBe(2));
    await waitFor(() => expect(fake.calls.setup).toBe(setups + 1));
    await waitFor(() => expect(fake.calls.coupons.length).toBe(lists + 1));
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog', { name: 'Claim coupon' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('coupon')).toHaveTextContent('Claimed'));
    expect(within(screen.getByTestId('coupon')).queryByRole('button')).not.toBeInTheDocument();
  });

  it('a second press of Claim while the claim runs sends nothing more', async () => {
    const fake = fakeWheelServer({ coupons: [coupon('c-1')] });
    const { user } = openWheel(fake);
    await user.click(await screen.findByRole('button', { name: 'Claim Cash prize c-1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claim coupon' });
    const release = fake.holdAnswers();
    const confirm = within(dialog).getByRole('button', { name: 'Claim' });
    await user.click(confirm);
    await waitFor(() => expect(confirm).toHaveAttribute('aria-busy', 'true'));
    await user.click(confirm);
    release();
    expect(await within(dialog).findByTestId('claim-done')).toBeInTheDocument();
    expect(fake.calls.claims).toHaveLength(1);
  });

  it.each([
    ['COUPON_EXPIRED', 422, 'This coupon has expired.'],
    ['NO_CLAIMABLE_COUPON', 404, 'There is no coupon to claim.'],
    ['INVALID_COUPON_TYPE', 422, 'This coupon type cannot be used.'],
  ])('a refused claim (%s) is an error alert with the translated code; nothing reloads', async (code, status, text) => {
    const fake = fakeWheelServer({ coupons: [coupon('c-1')] });
    const { user } = openWheel(fake);
    await user.click(await screen.findByRole('button', { name: 'Claim Cash prize c-1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Claim coupon' });
    await waitFor(() => expect(fake.calls.wallet).toBe(1));
    fake.refuseNext('claim', status, code);
    await user.click(within(dialog).getByRole('button', { name: 'Claim' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The coupon could not be claimed');
    expect(alert).toHaveTextContent(text);
    expect(document.querySelector('.notistack-MuiContent-error')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'OK' }));
    expect(screen.queryByRole('dialog', { name: 'Claim coupon' })).not.toBeInTheDocument();
    expect(fake.calls.wallet).toBe(1);
  });

  it('a claim goes with its list: the wheel closed and opened again shows no claim dialog', async () => {
    const fake = fakeWheelServer({ coupons: [coupon('c-1')] });
    function Reopen() {
      const [open, setOpen] = useState(true);
      return (
        <>
          <WalletOnScreen />
          <button type="button" onClick={() => setOpen((now) => !now)}>
            Toggle wheel
          </button>
          {open && <SpinWheelModal onClose={() => setOpen(false)} />}
        </>
      );
    }
    const { user } = renderWithProviders(<Reopen />, { preloadedState: { ...session, modals: { stack: ['spinWheel'] } } });
    await user.click(await screen.findByRole('button', { name: 'Claim Cash prize c-1' }));
    await screen.findByRole('dialog', { name: 'Claim coupon' });
    await user.click(screen.getByRole('button', { name: 'Toggle wheel', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Claim coupon' })).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Toggle wheel', hidden: true }));
    expect(await screen.findByRole('button', { name: 'Claim Cash prize c-1', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Claim coupon', hidden: true })).not.toBeInTheDocument();
    expect(fake.calls.claims).toEqual([]);
  });

  it('hides a failed list silently', async () => {
    const fake = fakeWheelServer();
    server.use(http.get('/api/spinwheel/coupon', () => errorResponse('INTERNAL_SERVER_ERROR', 500)));
    openWheel(fake);
    await screen.findByRole('img', { name: 'Prize wheel: Lucky wheel' });
    const list = screen.getByRole('region', { name: 'My coupons' });
    await waitFor(() => expect(list).toHaveAttribute('aria-busy', 'false'));
    expect(within(list).queryByTestId('coupons-loading')).not.toBeInTheDocument();
    expect(within(list).queryByTestId('coupon')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
