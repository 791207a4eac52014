import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Suspense } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';

import { AppProviders } from '../app/AppProviders';
import { lazyRoute } from './ChunkError';
import { modalOpened } from '../core/modalSlice';
import { initialPrefs } from '../core/prefs';
import { retryableLazy } from './retryableLazy';
import { makeStore } from '../app/store';

/** A fake dynamic import that fails `failures` times (ChunkLoadError), then gives a page saying `text`. */
function flakyModule(failures: number, text: string) {
  const Loaded = () => <p>{text}</p>;
  let calls = 0;
  return jest.fn((): Promise<{ default: typeof Loaded }> => {
    calls += 1;
    return calls <= failures ? Promise.reject(new Error('ChunkLoadError')) : Promise.resolve({ default: Loaded });
  });
}

const Layout = () => (
  <div>
    <nav aria-label="menu">menu</nav>
    <Outlet />
  </div>
);

function renderRoute(load: ReturnType<typeof flakyModule>) {
  const store = makeStore({ prefs: { ...initialPrefs, locale: 'en' } });
  const router = createMemoryRouter(
    [{ path: '/', element: <Layout />, children: [{ path: 'page', lazy: lazyRoute(load, { retries: 1, delayMs: 0 }) }] }],
    { initialEntries: ['/page'] },
  );
  render(
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, user: userEvent.setup() };
}

describe('a route whose chunk cannot be downloaded', () => {
  it('is retried and shows when a retry works', async () => {
    const load = flakyModule(1, 'The page');
    renderRoute(load);
    expect(await screen.findByText('The page')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('shows the message with Try again inside the layout, and Try again loads it without a reload', async () => {
    const load = flakyModule(2, 'The page');
    const { user, router } = renderRoute(load);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This part of the app could not be loaded');
    expect(screen.getByRole('navigation', { name: 'menu' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The page')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // Coming back later shows the loaded page at once.
    await act(() => router.navigate('/'));
    await act(() => router.navigate('/page'));
    expect(await screen.findByText('The page')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('keeps the message when Try again fails too', async () => {
    const load = flakyModule(4, 'The page');
    const { user } = renderRoute(load);
    await user.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeEnabled();
    expect(load).toHaveBeenCalledTimes(4);
    expect(screen.queryByText('The page')).not.toBeInTheDocument();
  });
});

describe('a modal whose chunk cannot be downloaded (retryableLazy)', () => {
  // React logs the error its boundary caught; that is the case under test.
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  function renderModal(load: ReturnType<typeof flakyModule>) {
    const store = makeStore({ prefs: { ...initialPrefs, locale: 'en' } });
    store.dispatch(modalOpened('promotion'));
    const Modal = retryableLazy('promotion', load, { retries: 1, delayMs: 0 });
    const onClose = jest.fn();
    const router = createMemoryRouter(
      [
        {
          path: '*',
          element: (
            <Suspense fallback={null}>
              <Modal onClose={onClose} />
            </Suspense>
          ),
        },
      ],
    );
    render(
      <AppProviders store={store}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    return { store, onClose, user: userEvent.setup() };
  }

  it('shows a dialog with the message; Try again opens the modal, which stays on the stack', async () => {
    const load = flakyModule(2, 'The modal');
    const { user, store } = renderModal(load);
    const dialog = await screen.findByRole('dialog', { name: 'Could not open' });
    expect(dialog).toHaveTextContent('This part of the app could not be loaded');

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('The modal')).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Could not open' })).not.toBeInTheDocument();
    expect(store.getState().modals.stack).toEqual(['promotion']);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('closes from the failure dialog', async () => {
    const { user, onClose } = renderModal(flakyModule(9, 'The modal'));
    await screen.findByRole('dialog', { name: 'Could not open' });
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(onClose).toHaveBeenCalled();
  });
});
