import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderApp } from '../../test/support/render';
import { server } from '../../test/support/server';
import { serveWallet } from '../../test/support/wallet';

// Records when the HTML sanitizer is loaded: it is ~11 KB gzip, and only dialogs showing server HTML need it.
const mockLoaded: string[] = [];
jest.mock('dompurify', () => {
  mockLoaded.push('dompurify');
  return jest.requireActual('dompurify');
});

describe("the player's first screen", () => {
  it('draws the home page without loading the HTML sanitizer, which comes with the first dialog that needs it', async () => {
    serveWallet();
    server.use(http.get('/api/lookup/conditions', () => HttpResponse.json(['<p>Be <b>fair</b></p>'])));
    renderApp('/user/home', {
      preloadedState: {
        prefs: { ...initialPrefs, locale: 'en', agreementAccepted: true },
        session: { token: 'tok', remember: false, login: { status: 'loggedIn' } },
      },
    });
    await waitFor(() => expect(screen.getByTestId('total-balance')).toHaveTextContent('1,000.30 baht'));
    expect(mockLoaded).toEqual([]);

    fireEvent.click(screen.getByRole('button', { name: 'Conditions' }));
    const dialog = await screen.findByRole('dialog', { name: 'Conditions' });
    expect(await within(dialog).findByText('fair')).toBeInTheDocument();
    expect(mockLoaded).toEqual(['dompurify']);
  });
});
