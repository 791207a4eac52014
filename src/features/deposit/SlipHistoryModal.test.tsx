import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { renderApp } from '../../test/support/render';
import { server } from '../../test/support/server';
import type { Slip } from './depositApi';
import { playerSession } from '../../test/support/deposit';

const at = '2026-03-04T05:06:07.000Z';
const slip = (n: number, over: Partial<Slip> = {}): Slip => ({ id: `slp_${n}`, createdAt: at, amount: 100, status: 'SUCCESS', note: null, link: `/api/statement/slip/image/slp_${n}?sig=x`, reference: `REF${n}`, ...over });

function slipServer(total: number, firstPage: Slip[]) {
  const bodies: { page: number; limit: number }[] = [];
  server.use(
    http.get('/api/wallet', () => HttpResponse.json({})),
    // The statement page behind the modal.
    http.post('/api/statement', () => HttpResponse.json({ total: 0, statements: [] })),
    http.post('/api/statement/slip', async ({ request }) => {
      const body = (await request.json()) as { page: number; limit: number };
      bodies.push(body);
      const slips = body.page === 1 ? firstPage : Array.from({ length: Math.min(10, total - (body.page - 1) * 10) }, (_, i) => slip((body.page - 1) * 10 + i + 1));
      return HttpResponse.json({ total, slips });
    }),
    http.get('/api/statement/slip/reference/:ref', ({ params }) => HttpResponse.json({ url: `/api/statement/slip/image/by-${String(params.ref)}` })),
  );
  return bodies;
}

async function openFromStatement() {
  const view = renderApp('/user/statement', { preloadedState: playerSession });
  await view.user.click(await screen.findByRole('button', { name: 'Slip upload status' }));
  const dialog = await screen.findByRole('dialog', { name: 'Slip uploads' });
  return { ...view, dialog };
}

describe('slip history modal', () => {
  it('opens from the statement page: 10 a page from page 1, time, amount or dash, status with reason, view links', async () => {
    const bodies = slipServer(23, [
      slip(1),
      slip(2, { status: 'FAILED', amount: 0, note: 'SLIP_REFNO_DUPLICATED' }),
      slip(3, { status: 'IN_PROGRESS', amount: 0, link: null }),
      slip(4, { status: 'FAILED', amount: 0, note: 'NOT_MATCH', link: null, reference: null }),
    ]);
    const { dialog } = await openFromStatement();
    const rows = await within(dialog).findAllByTestId('slip-row');
    expect(bodies[0]).toEqual({ page: 1, limit: 10 });
    // A card per slip (no four-column table at 360 px), each fact named by its term.
    expect(within(dialog).queryByRole('table')).not.toBeInTheDocument();
    expect(rows.every((row) => row.tagName === 'LI')).toBe(true);
    expect(within(rows[0]).getAllByRole('term').map((term) => term.textContent)).toEqual(['Received', 'Amount', 'Status']);
    const cells = rows.map((row) => within(row).getAllByRole('definition').map((c) => c.textContent));
    expect(cells[0][0]).toMatch(/^04\/03\/2026 \d\d:06:07$/);
    expect(cells[0].slice(1, 3)).toEqual(['100.00', 'Success']);
    expect(cells[1].slice(1, 3)).toEqual(['-', 'Failed (Duplicate slip)']);
    expect(cells[2].slice(1, 3)).toEqual(['-', 'In progress']);
    expect(cells[3][2]).toBe('Failed (Account does not match your registered account)');
    // Status styles: in progress is the default warning style.
    expect(within(rows[2]).getByText('In progress')).toHaveClass('slip-status--progress');
    expect(within(rows[0]).getByText('Success')).toHaveClass('slip-status--success');
    // A direct link opens in a new window; no link uses the reference call; neither: nothing to view.
    expect(within(rows[0]).getByRole('link', { name: /View the slip/ })).toHaveAttribute('href', '/api/statement/slip/image/slp_1?sig=x');
    expect(within(rows[0]).getByRole('link', { name: /View the slip/ })).toHaveAttribute('target', '_blank');
    expect(within(rows[2]).getByRole('button', { name: /View the slip/ })).toBeInTheDocument();
    expect(within(rows[3]).queryByRole('button')).not.toBeInTheDocument();
    // Pages: 3 (23 slips), the window 3 before and 1 after the current one.
    const pages = within(dialog).getByRole('navigation', { name: 'Pages' });
    expect(within(pages).getAllByRole('button', { name: /^Page/ }).map((b) => b.textContent)).toEqual(['1', '2']);
    expect(within(pages).getByRole('button', { name: 'Page 1' })).toHaveAttribute('aria-current', 'page');
  });

  it('opens a slip without a direct link through its reference, in a new window', async () => {
    slipServer(1, [slip(1, { link: null, reference: 'ABC123' })]);
    const fakeWindow = { opener: {}, location: { href: '' }, close: jest.fn() };
    const open = jest.spyOn(window, 'open').mockReturnValue(fakeWindow as unknown as Window);
    const { dialog, user } = await openFromStatement();
    await user.click(await within(dialog).findByRole('button', { name: /View the slip/ }));
    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(fakeWindow.location.href).toBe('/api/statement/slip/image/by-ABC123'));
    expect(fakeWindow.opener).toBeNull();
    open.mockRestore();
  });

  it('moves between pages and refreshes', async () => {
    const bodies = slipServer(45, [slip(1)]);
    const { dialog, user } = await openFromStatement();
    await within(dialog).findAllByTestId('slip-row');
    const pages = within(dialog).getByRole('navigation', { name: 'Pages' });
    await user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(within(pages).getAllByRole('button', { name: /^Page/ }).map((b) => b.textContent)).toEqual(['1', '2', '3']));
    await user.click(within(pages).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(within(pages).getAllByRole('button', { name: /^Page/ }).map((b) => b.textContent)).toEqual(['1', '2', '3', '4']));
    await user.click(within(pages).getByRole('button', { name: 'Page 4' }));
    await waitFor(() => expect(within(pages).getAllByRole('button', { name: /^Page/ }).map((b) => b.textContent)).toEqual(['1', '2', '3', '4', '5']));
    await user.click(within(pages).getByRole('button', { name: 'Page 5' }));
    await waitFor(() => expect(within(pages).getAllByRole('button', { name: /^Page/ }).map((b) => b.textContent)).toEqual(['2', '3', '4', '5']));
    expect(within(pages).getByRole('button', { name: 'Next page' })).toBeDisabled();
    const before = bodies.length;
    // Page 5's load may still be under way (the pages above change first): Refresh says "Loading…" and is disabled
    // until it has answered, so wait for it as a player would.
    await user.click(await within(dialog).findByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(bodies.length).toBe(before + 1));
    expect(bodies[bodies.length - 1]).toEqual({ page: 5, limit: 10 });
  });

  it('shows an empty state (a picture and the text) when there are no slips, and closes with Escape', async () => {
    slipServer(0, []);
    const { dialog, user } = await openFromStatement();
    const empty = await within(dialog).findByTestId('slips-empty');
    expect(empty).toHaveTextContent('No slips uploaded yet.');
    expect(empty.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});
