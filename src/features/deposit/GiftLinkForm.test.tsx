import { screen, waitFor } from '@testing-library/react';
import AES from 'crypto-js/aes';
import Utf8 from 'crypto-js/enc-utf8';
import { http, HttpResponse } from 'msw';

import { GIFTLINK_KEY } from '../../../shared/giftlink-key';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { encryptGiftLink } from './giftLink';
import { GiftLinkForm } from './GiftLinkForm';
import { playerSession } from '../../test/support/deposit';

const LINK = 'https://gift.truemoney.com/campaign/?v=abc123DEF456ghi789';

describe('gift link encryption', () => {
  it('round-trips with crypto-js AES and the shared key, in the OpenSSL passphrase format the server reads', async () => {
    const encrypted = await encryptGiftLink(`  ${LINK} `);
    expect(encrypted).not.toContain('gift.truemoney.com');
    expect(encrypted.startsWith('U2FsdGVkX1')).toBe(true); // base64 of 'Salted__'
    expect(AES.decrypt(encrypted, GIFTLINK_KEY).toString(Utf8)).toBe(LINK);
    // A random salt each time: the same link never looks the same twice.
    expect(await encryptGiftLink(LINK)).not.toBe(encrypted);
    const withWrongKey = () => {
      try {
        return AES.decrypt(encrypted, 'another key').toString(Utf8);
      } catch {
        return null; // usually not even valid UTF-8
      }
    };
    expect(withWrongKey()).not.toBe(LINK);
  });
});

describe('gift link form', () => {
  const render = () => renderWithProviders(<GiftLinkForm />, { preloadedState: playerSession });

  it('keeps send disabled while the field is empty and shows the 2-baht minimum', async () => {
    const { user } = render();
    const send = screen.getByRole('button', { name: 'Send link' });
    expect(send).toBeDisabled();
    expect(screen.getByLabelText('Gift link')).toHaveAccessibleDescription('Minimum 2.00 baht');
    await user.type(screen.getByLabelText('Gift link'), '   ');
    expect(send).toBeDisabled();
    await user.type(screen.getByLabelText('Gift link'), 'x');
    expect(send).toBeEnabled();
    await user.clear(screen.getByLabelText('Gift link'));
    expect(send).toBeDisabled();
  });

  it('sends the link encrypted, never in clear, and shows what arrived', async () => {
    const bodies: { link: string }[] = [];
    server.use(
      http.post('/api/wallet/truelink', async ({ request }) => {
        bodies.push((await request.json()) as { link: string });
        return HttpResponse.json({ status: 'SUCCESS', amount: 50, message: 'SUCCESS' });
      }),
    );
    const { user } = render();
    await user.type(screen.getByLabelText('Gift link'), LINK);
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText('Received 50.00 baht into your wallet.')).toBeInTheDocument();
    expect(bodies).toHaveLength(1);
    expect(bodies[0].link).not.toContain('truemoney');
    expect(AES.decrypt(bodies[0].link, GIFTLINK_KEY).toString(Utf8)).toBe(LINK);
    expect(screen.getByLabelText('Gift link')).toHaveValue('');
    // The button went busy, then disabled (empty field): focus comes back to the field, not the page body.
    expect(screen.getByLabelText('Gift link')).toHaveFocus();
  });

  it('shows a refusal in the player language under the field', async () => {
    server.use(http.post('/api/wallet/truelink', () => errorResponse('TRUELINK_DUPLICATE', 409)));
    const { user } = render();
    await user.type(screen.getByLabelText('Gift link'), LINK);
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    await waitFor(() => expect(screen.getByTestId('gift-status')).toHaveTextContent('This gift link has already been used.'));
    expect(screen.getByLabelText('Gift link')).toHaveValue(LINK);
  });
});
