import { screen, within } from '@testing-library/react';
import { File as NodeFile } from 'node:buffer';
import { http, HttpResponse } from 'msw';

import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import DepositModal from './DepositModal';
import type { DepositBank } from './depositApi';
import { depositLookup, fakeQrServer, playerSession, profileAnswer } from '../../test/support/deposit';

/** Issue 40 item 9 in the deposit modal: market, names, grouping, offline text, slip link and advice, the QR frame. */
const bcel: DepositBank = {
  bankCode: 'BCEL', bankType: 'BANK', mode: 'MANUAL', bank: { nameTH: 'บีซีอีแอล', nameEN: 'BCEL', name: 'ທະນາຄານການຄ້າຕ່າງປະເທດລາວ' },
  bankAccountName: 'DEMO WALLET LAO', bankAccountNo: '0101000123456', currency: 'LAK',
};
const gsb: DepositBank = { bankCode: 'GSB', bankType: 'BANK', mode: 'MANUAL', bank: { nameTH: 'ออมสิน', nameEN: 'GSB' }, bankAccountName: 'DEMO WALLET', bankAccountNo: '020123456789' };
const lookup = { ...depositLookup, banks: [...depositLookup.banks, gsb, bcel] };

function open(currency: string, ...overrides: Parameters<typeof server.use>) {
  const asked: string[] = [];
  const fake = fakeQrServer({ expireIn: 50 });
  server.use(...fake.handlers);
  server.use(
    http.get('/api/lookup/deposit', ({ request }) => {
      asked.push(new URL(request.url).searchParams.get('lang') ?? '');
      return HttpResponse.json(lookup);
    }),
    http.get('/api/account/profile', () => HttpResponse.json(profileAnswer(currency))),
  );
  // After the handlers above: a later server.use comes first.
  server.use(...overrides);
  const view = renderWithProviders(<DepositModal onClose={jest.fn()} />, { preloadedState: { ...playerSession, modals: { stack: ['deposit'] } } });
  return { ...view, asked };
}

afterEach(() => {
  Object.defineProperty(navigator, 'onLine', { value: true, configurable: true });
});

test('a baht player sees no LAK account; a LAK player sees the LAK account and no baht QR', async () => {
  const view = open('BAHT');
  expect(await screen.findByTestId('bank-GSB')).toBeInTheDocument();
  expect(screen.queryByTestId('bank-BCEL')).not.toBeInTheDocument();
  expect(view.asked[0]).toBe('en');
  view.unmount();
  open('LAK');
  expect(await screen.findByTestId('bank-BCEL')).toHaveTextContent('ທະນາຄານການຄ້າຕ່າງປະເທດລາວ');
  expect(screen.queryByTestId('bank-KBANK')).not.toBeInTheDocument();
  expect(screen.queryByRole('tab', { name: 'QR code' })).not.toBeInTheDocument();
});

test('every account number is grouped the same way; the slip upload is one tap away above the cards', async () => {
  const view = open('BAHT');
  expect(within(await screen.findByTestId('bank-GSB')).getByTestId('bank-account-no')).toHaveTextContent('020-123-456-789');
  expect(within(screen.getByTestId('bank-SCB')).getByTestId('bank-account-no')).toHaveTextContent('406-123-4567');
  const link = screen.getByTestId('bank-to-slip');
  // The link comes before the first account card in the document order (no scrolling past them).
  expect(link.compareDocumentPosition(screen.getByTestId('bank-KBANK')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  Element.prototype.scrollIntoView = jest.fn();
  await view.user.click(link);
  expect(screen.getByRole('region', { name: 'Upload your transfer slip' })).toHaveFocus();
});

test('offline with nothing loaded says there is no connection, not that there are no deposit channels', async () => {
  Object.defineProperty(navigator, 'onLine', { value: false, configurable: true });
  open('BAHT', http.get('/api/lookup/deposit', () => HttpResponse.error()));
  expect(await screen.findByTestId('deposit-unavailable')).toHaveTextContent('No connection');
  expect(screen.getByTestId('deposit-unavailable')).not.toHaveTextContent('No deposit method');
});

test('a refused slip says what to do next for its reason', async () => {
  const view = open('BAHT', http.post('/api/wallet/slip', () => errorResponse('SLIP_REFNO_DUPLICATED', 409)));
  await screen.findByTestId('bank-SCB');
  const png = new NodeFile([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1])], 'slip.png', { type: 'image/png' });
  await view.user.upload(screen.getByLabelText('Choose a picture'), png as unknown as File);
  expect(await screen.findByTestId('slip-advice')).toHaveTextContent('This slip was already used. Check your statement');
});

test('the QR sits in the Thai QR Payment frame with the payee, and its last minute is urgent', async () => {
  const view = open('BAHT');
  await view.user.click(await screen.findByRole('tab', { name: 'QR code' }));
  const panel = await screen.findByTestId('qr-KBANK');
  await view.user.type(within(panel).getByRole('textbox'), '100');
  await view.user.click(within(panel).getByRole('button', { name: /QR/ }));
  const frame = await within(panel).findByTestId('qr-frame');
  expect(frame).toHaveTextContent('THAI QR PAYMENT');
  expect(within(frame).getByTestId('qr-payee')).toHaveTextContent('Payee: DEMO WALLET');
  expect(within(frame).getByTestId('qr-image')).toBeInTheDocument();
  expect(within(panel).getByTestId('qr-countdown-line')).toHaveAttribute('data-urgent', 'true');
  expect(within(panel).getByTestId('qr-countdown-line')).toHaveTextContent('Almost out of time');
});
