import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { safeImage, safeLink, type ContactLookup } from './contactApi';
import ContactPage from './ContactPage';

const QR = 'data:image/png;base64,iVBORw0KGgo=';
const contact = (over: Partial<ContactLookup> = {}): ContactLookup => ({
  contactText: '<p>Our staff answer <b>24 hours</b> a day.</p><img src="x" onerror="window.hacked=1"><script>window.hacked=2</script>',
  lineLink: 'https://line.me/R/ti/p/@demowallet',
  lineName: '@demowallet',
  lineQR: QR,
  ...over,
});

function contactServer(answer: ContactLookup = contact(), chat = true) {
  const calls = { contact: 0 };
  server.use(
    http.get('/api/lookup/contact', () => {
      calls.contact += 1;
      return HttpResponse.json(answer);
    }),
    http.get('/api/lookup/enableChatWidget', () => HttpResponse.json({ enableChatWidget: chat })),
  );
  return calls;
}

const open = () => renderWithProviders(<ContactPage />);

describe('contact screen', () => {
  it('shows the sanitized contact text, the LINE QR with its description, the link to add LINE, and the version', async () => {
    contactServer();
    open();
    const card = await screen.findByTestId('contact-card');
    expect(card).toHaveTextContent('Our staff answer 24 hours a day.');
    expect(within(card).getByText('24 hours').tagName).toBe('B');
    expect(card.querySelector('script')).toBeNull();
    expect(card.querySelector('[onerror]')).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();
    expect(within(card).getByRole('img', { name: 'QR code to add @demowallet on LINE' })).toHaveAttribute('src', QR);
    const link = within(card).getByRole('link', { name: 'Add @demowallet on LINE' });
    expect(link).toHaveAttribute('href', 'https://line.me/R/ti/p/@demowallet');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByTestId('app-version')).toHaveTextContent('Version 1.1.14');
  });

  it('shows no QR when there is none, and the LINE name as text when there is no link', async () => {
    contactServer(contact({ lineQR: null, lineLink: '' }));
    open();
    const card = await screen.findByTestId('contact-card');
    expect(within(card).queryByTestId('contact-qr')).not.toBeInTheDocument();
    expect(within(card).queryByRole('link')).not.toBeInTheDocument();
    expect(within(card).getByTestId('contact-line-name')).toHaveTextContent('@demowallet');
  });

  it('opens the chat widget from "Chat with us" when the operator enabled the chat', async () => {
    contactServer();
    const { user, store } = open();
    expect(store.getState().chat.open).toBe(false);
    await user.click(await screen.findByRole('button', { name: 'Chat with us' }));
    expect(store.getState().chat.open).toBe(true);
  });

  it('offers no chat when the operator turned it off', async () => {
    contactServer(contact(), false);
    open();
    await screen.findByTestId('contact-card');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Chat with us' })).not.toBeInTheDocument());
    expect(screen.getByTestId('app-version')).toBeInTheDocument();
  });

  it('says when the contact details could not be loaded, and tries again on request', async () => {
    server.use(
      http.get('/api/lookup/contact', () => errorResponse('NO_DATA', 404)),
      http.get('/api/lookup/enableChatWidget', () => HttpResponse.json({ enableChatWidget: false })),
    );
    const { user } = open();
    const failed = await screen.findByTestId('contact-failed');
    expect(failed).toHaveTextContent('The contact details could not be loaded.');
    expect(document.querySelector('.notistack-MuiContent-error')).toBeNull();
    const calls = contactServer(contact(), false);
    await user.click(within(failed).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByTestId('contact-card')).toBeInTheDocument();
    expect(screen.queryByTestId('contact-failed')).not.toBeInTheDocument();
    expect(calls.contact).toBe(1);
  });
});

describe('links and images from the stored document', () => {
  it.each([
    ['https://line.me/R/ti/p/@x', 'https://line.me/R/ti/p/@x'],
    ['http://example.com/a', 'http://example.com/a'],
    ['javascript:alert(1)', null],
    ['data:text/html,<b>x</b>', null],
    ['line.me/x', null],
    ['', null],
    [null, null],
  ])('link %p -> %p', (value, result) => {
    expect(safeLink(value)).toBe(result);
  });

  it.each([
    [QR, QR],
    ['/media/line-qr.png', '/media/line-qr.png'],
    ['https://cdn.example/qr.png', 'https://cdn.example/qr.png'],
    ['//evil.example/qr.png', null],
    ['data:text/html;base64,PGI+', null],
    ['javascript:alert(1)', null],
  ])('image %p -> %p', (value, result) => {
    expect(safeImage(value)).toBe(result);
  });
});
