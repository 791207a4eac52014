import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderApp, renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import type { InviteItem } from './inviteApi';
import InviteModal from './InviteModal';

const session = { session: { token: 'tok-1', remember: false, login: { status: 'loggedIn' as const } } };
const accepted = { ...session, prefs: { ...initialPrefs, locale: 'en' as const, agreementAccepted: true } };

const invitee = (n: number): InviteItem => ({ from: { name: `Friend ${n}` }, amount: n % 2 === 0 ? 0 : 25, createdAt: '2026-11-20T05:06:07.000Z' });

/** The invite routes of the wire contract and the wallet (profile 42, 1 invitee deposited and 2 not), counted. */
function fakeInviteServer({ total = 3, success = 1, fail = 2 } = {}) {
  const calls = { list: [] as { page: number; limit: number }[], wallet: 0 };
  server.use(
    http.post('/api/invite', async ({ request }) => {
      const body = (await request.json()) as { page: number; limit: number };
      calls.list.push(body);
      const from = (body.page - 1) * body.limit;
      const invites = Array.from({ length: Math.max(0, Math.min(body.limit, total - from)) }, (_, i) => invitee(from + i + 1));
      return HttpResponse.json({ invites, total, success, fail });
    }),
    http.get('/api/wallet', () => {
      calls.wallet += 1;
      return HttpResponse.json({
        profile: { name: 'Demo', username: '0812345678', _id: '42', coin: 0 },
        bankAccount: { bankAccountName: 'D', bankAccountNo: '1', bankCode: 'KBANK', bank: { nameTH: 'ก', nameEN: 'K' } },
        wallet: { amount: 0 },
        invite: { amount: 25, success: 7, fail: 8 },
        slots: [],
      });
    }),
    http.get('/api/spinwheel/active', () => HttpResponse.json({ isActive: false })),
  );
  return calls;
}

function openModal() {
  return renderWithProviders(<InviteModal onClose={() => undefined} />, { preloadedState: { ...session, modals: { stack: ['invite'] } } });
}

function setNavigator(key: 'clipboard' | 'share', value: unknown) {
  Object.defineProperty(navigator, key, { value, configurable: true, writable: true });
}

afterEach(() => {
  setNavigator('clipboard', undefined);
  Reflect.deleteProperty(navigator, 'share');
  jest.useRealTimers();
});

describe('invite modal', () => {
  it('opens from the home widget behind the invite banners, with the player’s link', async () => {
    fakeInviteServer();
    server.use(http.get('/api/invite/banners', () => HttpResponse.json({ banners: [{ image: '/banners/i.png', html: { th: 'ก', la: 'ກ', en: 'Invite week' } }] })));
    const { user } = renderApp('/user/home', { preloadedState: accepted });
    await user.click(await screen.findByRole('button', { name: 'Invite friends' }));
    const banners = await screen.findByRole('dialog', { name: 'Invite friends' });
    expect(await within(banners).findByText('Invite week')).toBeInTheDocument();
    await user.click(within(banners).getByRole('button', { name: 'Continue' }));
    const modal = await screen.findByTestId('invite-modal');
    expect(within(modal).getByRole('textbox', { name: 'Your invite link' })).toHaveValue('http://localhost/register?code=PR42');
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
  });

  it("copies the link and says 'Copied: ...'; a failed copy says 'Failed to copy'", async () => {
    fakeInviteServer();
    const { user } = openModal();
    const writeText = jest.fn().mockResolvedValue(undefined);
    // After render: user-event installs its own clipboard stub at setup.
    setNavigator('clipboard', { writeText });
    const dialog = await screen.findByRole('dialog', { name: 'Invite friends' });
    const copy = within(dialog).getByRole('button', { name: 'Copy link' });
    await waitFor(() => expect(copy).toBeEnabled());
    await user.click(copy);
    expect(writeText).toHaveBeenCalledWith('http://localhost/register?code=PR42');
    expect(await within(dialog).findByText('Copied: http://localhost/register?code=PR42')).toHaveAttribute('role', 'status');

    writeText.mockRejectedValue(new Error('denied'));
    Object.assign(document, { execCommand: jest.fn().mockReturnValue(false) });
    await user.click(copy);
    expect(await within(dialog).findByText('Failed to copy')).toBeInTheDocument();
  });

  it('offers a share action only where the browser has one, sharing the link', async () => {
    fakeInviteServer();
    const first = openModal();
    await screen.findByDisplayValue('http://localhost/register?code=PR42');
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    first.unmount();

    const share = jest.fn().mockRejectedValue(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
    setNavigator('share', share);
    const { user } = openModal();
    await screen.findByDisplayValue('http://localhost/register?code=PR42');
    await user.click(screen.getByRole('button', { name: 'Share' }));
    expect(share).toHaveBeenCalledWith({ title: 'Join me', text: 'Register with my invite link', url: 'http://localhost/register?code=PR42' });
    // A cancelled share says nothing.
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows the success and fail counts and lists the invitees 10 a page with the pagination window', async () => {
    const calls = fakeInviteServer({ total: 57, success: 20, fail: 37 });
    const { user } = openModal();
    const rows = await screen.findAllByTestId('invite-row');
    expect(rows).toHaveLength(10);
    expect(calls.list[0]).toEqual({ page: 1, limit: 10 });
    expect(screen.getByTestId('invite-success')).toHaveTextContent('20');
    expect(screen.getByTestId('invite-fail')).toHaveTextContent('37');
    expect(within(rows[0]).getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['Friend 1', '25.00', expect.stringMatching(/^20\/11\/2026 \d\d:06:07$/)]);
    expect(within(rows[1]).getAllByRole('cell')[1]).toHaveTextContent('0.00');
    const pages = screen.getByRole('navigation', { name: 'Invited friends pages' });
    const numbers = () => within(pages).getAllByRole('button', { name: /^Page/ }).map((button) => button.textContent);
    expect(numbers()).toEqual(['1', '2']);
    for (const page of [2, 3, 4, 5]) await user.click(within(pages).getByRole('button', { name: `Page ${page}` }));
    await waitFor(() => expect(numbers()).toEqual(['2', '3', '4', '5', '6']));
    await user.click(within(pages).getByRole('button', { name: 'Page 6' }));
    await waitFor(() => expect(screen.getAllByTestId('invite-row')).toHaveLength(7));
    expect(screen.getAllByTestId('invite-row')[0]).toHaveTextContent('Friend 51');
    expect(numbers()).toEqual(['3', '4', '5', '6']);
    expect(within(pages).getByRole('button', { name: 'Next page' })).toBeDisabled();
    expect(calls.list[calls.list.length - 1]).toEqual({ page: 6, limit: 10 });
  });

  it('says when nobody was invited yet', async () => {
    fakeInviteServer({ total: 0, success: 0, fail: 0 });
    openModal();
    expect(await screen.findByTestId('invite-list-empty')).toHaveTextContent('No friends invited yet.');
    expect(screen.queryByRole('navigation', { name: 'Invited friends pages' })).not.toBeInTheDocument();
  });

  it('hides a failed list silently; the counts come from the wallet', async () => {
    fakeInviteServer();
    server.use(http.post('/api/invite', () => errorResponse('INTERNAL_SERVER_ERROR', 500)));
    openModal();
    await waitFor(() => expect(screen.getByTestId('invite-success')).toHaveTextContent('7'));
    expect(screen.getByTestId('invite-fail')).toHaveTextContent('8');
    const list = screen.getByRole('region', { name: 'Invited friends' });
    await waitFor(() => expect(list).toHaveAttribute('aria-busy', 'false'));
    expect(screen.queryByTestId('invite-list-loading')).not.toBeInTheDocument();
    expect(screen.queryByTestId('invite-list')).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(document.querySelector('.notistack-MuiContent-error')).toBeNull();
  });

  it('shows the list loader only when the list takes longer than 200 ms', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    fakeInviteServer();
    server.use(
      http.post('/api/invite', async () => {
        await held;
        return HttpResponse.json({ invites: [invitee(1)], total: 1, success: 1, fail: 0 });
      }),
    );
    try {
      openModal();
      act(() => jest.advanceTimersByTime(199));
      expect(screen.queryByTestId('invite-list-loading')).not.toBeInTheDocument();
      act(() => jest.advanceTimersByTime(1));
      expect(screen.getByTestId('invite-list-loading')).toHaveTextContent('Loading…');
      answer();
      expect(await screen.findByTestId('invite-row')).toHaveTextContent('Friend 1');
      expect(screen.queryByTestId('invite-list-loading')).not.toBeInTheDocument();
    } finally {
      answer();
    }
  });
});
