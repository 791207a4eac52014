import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { renderApp } from '../../test/support/render';
import { server } from '../../test/support/server';

describe('top bar brand', () => {
  it("shows the operator's logo and name from the info lookup", async () => {
    server.use(http.get('/api/lookup/info', () => HttpResponse.json({ name: 'Lucky Baht', website: 'https://x.example', demo: false, logo: '/media/logo.png' })));
    renderApp('/login');
    const brand = await screen.findByRole('link', { name: 'Lucky Baht' });
    expect(brand).toHaveAttribute('href', '/login');
    // The logo is decorative next to the name: the link's name is the operator's name alone.
    const logo = brand.querySelector('img');
    expect(logo).toHaveAttribute('src', '/media/logo.png');
    expect(logo).toHaveAttribute('alt', '');
  });

  it("shows the app's own name and no image until the lookup answers, and when it fails", async () => {
    server.use(http.get('/api/lookup/info', () => HttpResponse.json({ message: 'INTERNAL_SERVER_ERROR' }, { status: 500 })));
    const { store } = renderApp('/login');
    await screen.findByRole('heading', { name: 'Log in' });
    await waitFor(() => expect(store.getState().api.queries['getSiteInfo(undefined)']?.status).toBe('rejected'));
    const brand = screen.getByTestId('brand');
    expect(brand).toHaveTextContent('Wallet');
    expect(brand.querySelector('img')).toBeNull();
  });

  it('shows the name alone when the operator configured no logo', async () => {
    server.use(http.get('/api/lookup/info', () => HttpResponse.json({ name: 'Lucky Baht', website: 'https://x.example', demo: false })));
    renderApp('/login');
    expect(await screen.findByRole('link', { name: 'Lucky Baht' })).toBeInTheDocument();
    expect(screen.getByTestId('brand').querySelector('img')).toBeNull();
  });
});
