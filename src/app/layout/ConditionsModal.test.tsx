import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { loggedInSession } from '../../features/session/sessionSlice';
import { initialPrefs } from '../../core/prefs';
import { renderApp } from '../../test/support/render';
import { server } from '../../test/support/server';
import { serveUserArea } from '../../test/support/userArea';

const conditions = [
  '<p>Deposit <b>at least</b> 1 baht</p><img src="x" onerror="window.__pwned = true">',
  '<a href="https://example.com" target="_blank">Rules</a><script>window.__pwned = true</script>',
];

describe('conditions modal (user menu)', () => {
  beforeEach(() => {
    serveUserArea();
    server.use(http.get('/api/lookup/conditions', () => HttpResponse.json(conditions)));
  });

  // The agreement accepted before: else it opens 1.5 s after the home (spec §9), and on a slow machine that is a second
  // dialog before the test is done with this one.
  const accepted = { ...initialPrefs, locale: 'en' as const, agreementAccepted: true };

  async function open() {
    const view = renderApp('/user/home', { preloadedState: { session: loggedInSession('tok'), prefs: accepted } });
    await view.user.click(await screen.findByRole('button', { name: 'Conditions' }));
    return { ...view, dialog: await screen.findByRole('dialog', { name: 'Conditions' }) };
  }

  it('lists the conditions as sanitized HTML', async () => {
    const { dialog } = await open();
    const items = await within(dialog).findAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(items[0].querySelector('b')).toHaveTextContent('at least');
    expect(items[0].querySelector('img')).not.toHaveAttribute('onerror');
    expect(items[1].querySelector('script')).toBeNull();
    expect(within(items[1]).getByRole('link', { name: 'Rules' })).toHaveAttribute('rel', 'noopener noreferrer');
    expect((window as { __pwned?: boolean }).__pwned).toBeUndefined();
  });

  it("asks for the player's language and shows the conditions in it (issue 12)", async () => {
    const asked: (string | null)[] = [];
    server.use(
      http.get('/api/lookup/conditions', ({ request }) => {
        const lang = new URL(request.url).searchParams.get('lang');
        asked.push(lang);
        return HttpResponse.json(lang === 'la' ? ['<p>ຜູ້ຫຼິ້ນຕ້ອງມີອາຍຸ 20 ປີຂຶ້ນໄປ</p>'] : ['<p>Players must be 20 or older.</p>']);
      }),
    );
    const view = renderApp('/user/home', { preloadedState: { session: loggedInSession('tok'), prefs: { ...accepted, locale: 'la' } } });
    await view.user.click(await screen.findByRole('button', { name: 'ເງື່ອນໄຂ' }));
    const dialog = await screen.findByRole('dialog', { name: 'ເງື່ອນໄຂການນຳໃຊ້' });
    expect(await within(dialog).findByText('ຜູ້ຫຼິ້ນຕ້ອງມີອາຍຸ 20 ປີຂຶ້ນໄປ')).toBeInTheDocument();
    expect(asked).toEqual(['la']);
  });

  it('locks body scrolling while open and closes on Escape, giving focus back', async () => {
    const { user } = await open();
    const opener = screen.getByRole('button', { name: 'Conditions' });
    expect(document.body.style.overflow).toBe('hidden');
    expect(screen.getByRole('dialog')).toHaveAttribute('aria-modal', 'true');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(document.body.style.overflow).toBe('');
    expect(opener).toHaveFocus();
  });

  it('keeps keyboard focus inside the dialog', async () => {
    const { user, dialog } = await open();
    await within(dialog).findAllByRole('listitem');
    const close = within(dialog).getByRole('button', { name: 'Close' });
    expect(close).toHaveFocus();
    const link = within(dialog).getByRole('link', { name: 'Rules' });
    await user.tab();
    expect(link).toHaveFocus();
    await user.tab();
    expect(close).toHaveFocus();
    await user.tab({ shift: true });
    expect(link).toHaveFocus();
  });

  it('closes with its close button', async () => {
    const { user, dialog, store } = await open();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(store.getState().modals.stack).toEqual([]);
  });

  it('says so when there are no conditions', async () => {
    server.use(http.get('/api/lookup/conditions', () => HttpResponse.json([])));
    const { dialog } = await open();
    expect(await within(dialog).findByText('There are no conditions to show.')).toBeInTheDocument();
  });
});
