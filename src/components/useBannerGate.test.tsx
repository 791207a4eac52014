import { useState } from 'react';
import { act, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import type { Banner } from '../core/bannerApi';
import { modalClosed } from '../core/modalSlice';
import { renderWithProviders } from '../test/support/render';
import { errorResponse, server } from '../test/support/server';
import { useBannerGate } from './useBannerGate';

const session = { session: { token: 'tok', remember: false, login: { status: 'loggedIn' as const } } };
const banners: Banner[] = [
  { image: '/banners/refund-1.png', html: { th: '<p>คืนยอดเสีย</p>', la: '<p>ຄືນຍອດເສຍ</p>', en: '<p>Refund week<script>alert(1)</script></p>' } },
  { image: '/banners/refund-2.png', html: { th: '', la: '', en: '' } },
];

/** An opener as a home widget uses it; the target modal is only tracked on the modal stack here. */
function Opener() {
  const gate = useBannerGate({ source: 'refund', modalId: 'refund', title: 'Refund' });
  return (
    <>
      <button type="button" onClick={gate.open} aria-busy={gate.busy}>
        Open refund
      </button>
      {gate.view}
    </>
  );
}

function serveBanners(answer: () => Response | Promise<Response>) {
  const calls = { count: 0 };
  server.use(
    http.get('/api/refund/banners', () => {
      calls.count += 1;
      return answer();
    }),
  );
  return calls;
}

describe('banner gate', () => {
  it('opens the modal directly when there are no banners', async () => {
    const calls = serveBanners(() => HttpResponse.json({ banners: [] }));
    const { user, store } = renderWithProviders(<Opener />, { preloadedState: session });
    await user.click(screen.getByRole('button', { name: 'Open refund' }));
    await waitFor(() => expect(store.getState().modals.stack).toEqual(['refund']));
    expect(calls.count).toBe(1);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the banners first (sanitized captions); closing them opens the modal', async () => {
    serveBanners(() => HttpResponse.json({ banners }));
    const { user, store } = renderWithProviders(<Opener />, { preloadedState: session });
    await user.click(screen.getByRole('button', { name: 'Open refund' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refund' });
    expect(store.getState().modals.stack).toEqual(['banners-refund']);
    const slides = await within(dialog).findAllByTestId('banner-slide');
    expect(slides).toHaveLength(2);
    expect(slides[0]).toHaveTextContent('Refund week');
    expect(dialog.innerHTML).not.toContain('<script');
    // A banner without a caption still has a text alternative.
    expect(within(slides[1]).getByRole('img', { name: 'Picture 2' })).toHaveAttribute('src', '/banners/refund-2.png');
    expect(within(dialog).getByRole('button', { name: 'Next picture' })).toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: 'Refund: pictures' })).toContainElement(slides[0]);
    await user.click(within(dialog).getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(store.getState().modals.stack).toEqual(['refund']));
    expect(screen.queryByRole('dialog', { name: 'Refund' })).not.toBeInTheDocument();
  });

  it('closing the banners with Escape opens the modal too', async () => {
    serveBanners(() => HttpResponse.json({ banners: banners.slice(0, 1) }));
    const { user, store } = renderWithProviders(<Opener />, { preloadedState: session });
    await user.click(screen.getByRole('button', { name: 'Open refund' }));
    await screen.findByRole('dialog', { name: 'Refund' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(store.getState().modals.stack).toEqual(['refund']));
  });

  it('asks once while busy, and fetches the banners again the next time', async () => {
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      answer = resolve;
    });
    const calls = serveBanners(async () => {
      await held;
      return HttpResponse.json({ banners: [] });
    });
    const { user, store } = renderWithProviders(<Opener />, { preloadedState: session });
    const button = screen.getByRole('button', { name: 'Open refund' });
    await user.click(button);
    expect(button).toHaveAttribute('aria-busy', 'true');
    await user.click(button);
    answer();
    await waitFor(() => expect(store.getState().modals.stack).toEqual(['refund']));
    expect(calls.count).toBe(1);
    expect(button).toHaveAttribute('aria-busy', 'false');
    act(() => void store.dispatch(modalClosed('refund')));
    await user.click(button);
    await waitFor(() => expect(store.getState().modals.stack).toEqual(['refund']));
    expect(calls.count).toBe(2);
  });

  it('the banners go with their opener: back on the page, nothing shows until it is pressed again', async () => {
    serveBanners(() => HttpResponse.json({ banners }));
    function Page() {
      const [shown, setShown] = useState(true);
      return (
        <>
          <button type="button" onClick={() => setShown((now) => !now)}>
            Toggle page
          </button>
          {shown && <Opener />}
        </>
      );
    }
    const { user, store } = renderWithProviders(<Page />, { preloadedState: session });
    await user.click(screen.getByRole('button', { name: 'Open refund' }));
    await screen.findByRole('dialog', { name: 'Refund' });
    await user.click(screen.getByRole('button', { name: 'Toggle page', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Refund' })).not.toBeInTheDocument());
    await user.click(screen.getByRole('button', { name: 'Toggle page' }));
    expect(await screen.findByRole('button', { name: 'Open refund' })).toHaveAttribute('aria-busy', 'false');
    expect(screen.queryByRole('dialog', { name: 'Refund' })).not.toBeInTheDocument();
    expect(store.getState().modals.stack).toEqual([]);
  });

  it('lets the player through silently when the banners fail to load', async () => {
    serveBanners(() => errorResponse('INTERNAL_SERVER_ERROR', 500));
    const { user, store } = renderWithProviders(<Opener />, { preloadedState: session });
    await user.click(screen.getByRole('button', { name: 'Open refund' }));
    await waitFor(() => expect(store.getState().modals.stack).toEqual(['refund']));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('opens nothing when the failure ends the session', async () => {
    serveBanners(() => errorResponse('invalid-token', 401));
    const { user, store, router } = renderWithProviders(<Opener />, { preloadedState: session });
    await user.click(screen.getByRole('button', { name: 'Open refund' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(store.getState().modals.stack).toEqual([]);
  });
});
