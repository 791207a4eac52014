import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';

import { initialPrefs } from '../../core/prefs';
import { renderWithProviders } from '../../test/support/render';
import { server } from '../../test/support/server';
import DepositModal from './DepositModal';
import { shownQrFrom } from './qrSlice';
import { fakeQrServer, playerSession } from '../../test/support/deposit';

/**
 * A gateway that answers only its own QR image (PAYMENT_GATEWAY=opn, docs/providers/opn.md): the panel shows that
 * image with its own alt text in th/la/en, instead of drawing a payload; nothing of ours to save or share.
 */
const IMAGE = 'https://api.omise.co/charges/chrg_test_1/documents/docu_test_1/downloads/qrcode.png';

function gatewayQrServer() {
  let live: { id: string; amount: number } | null = null;
  const record = () =>
    live
      ? { qrcodeId: live.id, hasQrcode: true, bankCode: 'KBANK', qrcode: null, payload: null, imageUrl: IMAGE, amount: live.amount, expireIn: 300, message: '' }
      : { qrcodeId: null, hasQrcode: false, bankCode: null, qrcode: null, payload: null, amount: null, expireIn: 0, message: '', last: null };
  return [
    http.get('/api/qrcode/:bank', () => HttpResponse.json(record())),
    http.post('/api/qrcode/:bank', async ({ request }) => {
      live = { id: 'qr_gateway_1', amount: Number(((await request.json()) as { amount: number }).amount) };
      return HttpResponse.json(record());
    }),
  ];
}

async function showGatewayQr(locale: 'en' | 'th' | 'la') {
  server.use(...fakeQrServer().handlers);
  server.use(...gatewayQrServer()); // used before the fake's QR routes (the later use wins)
  const view = renderWithProviders(<DepositModal onClose={jest.fn()} />, {
    preloadedState: { ...playerSession, modals: { stack: ['deposit'] }, prefs: { ...initialPrefs, locale } },
  });
  await view.user.click(await screen.findByRole('tab', { name: /QR code|คิวอาร์โค้ด|ຄິວອາໂຄດ/ }));
  const panel = await screen.findByTestId('qr-KBANK');
  await view.user.click(within(panel).getByRole('button', { name: '100' }));
  await view.user.click(within(panel).getByTestId('qr-create'));
  await within(panel).findByRole('timer');
  return panel;
}

it.each([
  ['en', 'Kasikornbank QR code for 100.00 baht, from the payment gateway'],
  ['th', /^คิวอาร์โค้ด .+ ยอด 100\.00 บาท จากผู้ให้บริการชำระเงิน$/],
  ['la', /^ຄິວອາໂຄດ .+ ຈຳນວນ 100,00 ບາດ ຈາກຜູ້ໃຫ້ບໍລິການຊຳລະເງິນ$/],
] as const)('%s: the gateway image is shown as it is, with its alt text; no Save QR of ours', async (locale, alt) => {
  const panel = await showGatewayQr(locale);
  const image = within(panel).getByRole('img', { name: alt });
  expect(image.getAttribute('src')).toBe(IMAGE);
  expect(image.getAttribute('data-source')).toBe('gateway');
  expect(within(panel).queryByRole('button', { name: /Save QR|บันทึก/ })).not.toBeInTheDocument();
});

it('shownQrFrom takes an image-only answer, and refuses one that is neither drawn nor an http(s) image', () => {
  const base = { qrcodeId: 'qr_1', hasQrcode: true, qrcode: null, payload: null, amount: 50, expireIn: 60, message: '' };
  expect(shownQrFrom({ ...base, imageUrl: IMAGE }, 0)).toEqual({ qrcodeId: 'qr_1', svg: '', imageUrl: IMAGE, amount: 50, expiresAt: 60_000 });
  expect(shownQrFrom({ ...base, imageUrl: 'javascript:alert(1)' }, 0)).toBeNull();
  expect(shownQrFrom(base, 0)).toBeNull();
});
