import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import { BankModeNote, CreditTimeNote, SlipWindowNote } from './ConfiguredNotes';
import { GiftLinkForm } from './GiftLinkForm';

/** Issue 12: texts that state a configured value read it from the lookups, not from the translation. */
const deposit = (over: object = {}) =>
  http.get('/api/lookup/deposit', () => HttpResponse.json({ banks: [], wallets: [], isManual: false, creditMinutes: 5, giftMinimum: 10, ...over }));
const slip = (over: object = {}) =>
  http.get('/api/lookup/slip', () => HttpResponse.json({ isOpen: true, closeFrom: null, closeTo: null, uploadWindowMinutes: 30, ...over }));

function Notes() {
  return (
    <>
      <CreditTimeNote />
      <BankModeNote auto />
      <BankModeNote auto={false} />
      <SlipWindowNote />
    </>
  );
}

it("names the operator's credit time and slip window from the deposit and slip lookups", async () => {
  server.use(deposit(), slip());
  renderWithProviders(<Notes />);
  expect(await screen.findByText('Money reaches your wallet in about 5 minutes.')).toBeInTheDocument();
  expect(screen.getByText('Credited automatically in about 5 minutes; no slip needed.')).toBeInTheDocument();
  expect(await screen.findByText('After the transfer, upload the slip within 30 minutes.')).toBeInTheDocument();
  expect(screen.getByText('Upload the slip within 30 minutes of the transfer.')).toBeInTheDocument();
});

it('says one minute in the singular, and in Thai and Lao with the same number', async () => {
  server.use(deposit({ creditMinutes: 1 }), slip({ uploadWindowMinutes: 45 }));
  const { unmount } = renderWithProviders(<Notes />);
  expect(await screen.findByText('Money reaches your wallet in about 1 minute.')).toBeInTheDocument();
  unmount();
  renderWithProviders(<Notes />, { preloadedState: { prefs: { ...initialPrefs, locale: 'th' } } });
  expect(await screen.findByText('เงินจะเข้ากระเป๋าภายในประมาณ 1 นาที')).toBeInTheDocument();
  expect(await screen.findByText('กรุณาแนบสลิปภายใน 45 นาทีหลังการโอน')).toBeInTheDocument();
});

it("names the product's defaults while the lookups cannot be read", async () => {
  server.use(
    http.get('/api/lookup/deposit', () => errorResponse('INTERNAL_SERVER_ERROR', 500)),
    http.get('/api/lookup/slip', () => errorResponse('INTERNAL_SERVER_ERROR', 500)),
  );
  renderWithProviders(<Notes />, { preloadedState: { prefs: { ...initialPrefs, locale: 'la' } } });
  await waitFor(() => expect(screen.getByTestId('credit-time')).toHaveTextContent('ເງິນຈະເຂົ້າກະເປົາພາຍໃນປະມານ 1 ນາທີ'));
  expect(screen.getByTestId('slip-window')).toHaveTextContent('ກະລຸນາແນບສະລິບພາຍໃນ 60 ນາທີຫຼັງຈາກໂອນ');
});

it("the gift-link minimum is the server's (deposit lookup giftMinimum)", async () => {
  server.use(deposit({ giftMinimum: 10 }));
  renderWithProviders(<GiftLinkForm />);
  expect(await screen.findByText('Minimum 10.00 baht')).toBeInTheDocument();
});
