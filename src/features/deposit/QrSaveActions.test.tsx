import { screen, waitFor, within } from '@testing-library/react';

import { initialPrefs } from '../../core/prefs';
import { renderWithProviders } from '../../test/support/render';
import { server } from '../../test/support/server';
import DepositModal from './DepositModal';
import { renderQrCard } from './qrCard';
import { fakeQrServer, playerSession, QR_PAYLOAD } from '../../test/support/deposit';

/** Save QR and Share on the shown QR (issue 12): the drawing itself is tested in qrCard.test.ts (jsdom has no canvas). */
jest.mock('./qrCard', () => ({ ...jest.requireActual('./qrCard'), renderQrCard: jest.fn() }));
const render = renderQrCard as jest.MockedFunction<typeof renderQrCard>;
const nav = navigator as unknown as Record<string, unknown>;
const urls = URL as unknown as Record<string, unknown>;
let clicked: { href: string; download: string }[];

beforeEach(() => {
  render.mockReset();
  render.mockImplementation(async (input) => new File([new Uint8Array([1, 2, 3])], `qr-${input.bank}-${input.amount.toFixed(2)}.png`, { type: 'image/png' }));
  clicked = [];
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    clicked.push({ href: this.href, download: this.download });
  });
  urls.createObjectURL = jest.fn(() => 'blob:http://localhost/qr-1');
  urls.revokeObjectURL = jest.fn();
});
afterEach(() => {
  jest.restoreAllMocks();
  delete nav.share;
  delete nav.canShare;
  delete urls.createObjectURL;
  delete urls.revokeObjectURL;
});

function shareable(share: jest.Mock) {
  nav.share = share;
  nav.canShare = (data: { files?: File[] }) => data.files?.length === 1 && data.files[0]?.type === 'image/png';
}

async function showQr(locale: 'en' | 'th' = 'en') {
  const fake = fakeQrServer({ payload: QR_PAYLOAD });
  server.use(...fake.handlers);
  const view = renderWithProviders(<DepositModal onClose={jest.fn()} />, {
    preloadedState: { ...playerSession, modals: { stack: ['deposit'] }, prefs: { ...initialPrefs, locale } },
  });
  await view.user.click(await screen.findByRole('tab', { name: /QR code|คิวอาร์โค้ด/ }));
  const panel = await screen.findByTestId('qr-KBANK');
  await view.user.click(within(panel).getByRole('button', { name: '100' }));
  await view.user.click(within(panel).getByTestId('qr-create'));
  await within(panel).findByRole('timer');
  return { ...view, panel };
}

it('the QR is a PNG image; Save QR downloads the card named for bank and amount; no Share without file sharing', async () => {
  const { panel, user } = await showQr();
  const image = within(panel).getByRole('img', { name: 'Kasikornbank QR code for 100.00 baht' });
  expect(image.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
  expect(within(panel).queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
  // Nothing is drawn until it is asked for.
  expect(render).not.toHaveBeenCalled();

  const save = within(panel).getByRole('button', { name: 'Save QR' });
  save.focus();
  await user.keyboard('{Enter}');
  await waitFor(() => expect(clicked).toEqual([{ href: 'blob:http://localhost/qr-1', download: 'qr-KBANK-100.00.png' }]));
  expect(render).toHaveBeenCalledTimes(1);
  const [input, lines] = render.mock.calls[0]!;
  expect(input).toMatchObject({ payload: QR_PAYLOAD, bank: 'KBANK', bankName: 'Kasikornbank', amount: 100 });
  expect(lines).toEqual(['Amount: 100.00 baht', 'Kasikornbank', expect.stringMatching(/^Pay before .*\d\d:\d\d$/)]);
  expect(within(panel).queryByRole('alert')).not.toBeInTheDocument();
  expect(save).toHaveFocus();
});

it('a card that cannot be made says so, and the next tap tries again', async () => {
  render.mockRejectedValueOnce(new Error('no 2D canvas'));
  const { panel, user } = await showQr();
  await user.click(within(panel).getByRole('button', { name: 'Save QR' }));
  await waitFor(() => expect(within(panel).getByRole('alert')).toHaveTextContent('The QR code could not be saved. Take a screenshot instead.'));
  expect(clicked).toEqual([]);
  await user.click(within(panel).getByRole('button', { name: 'Save QR' }));
  await waitFor(() => expect(clicked).toHaveLength(1));
  expect(within(panel).queryByRole('alert')).not.toBeInTheDocument();
});

it('Share, where files can be shared, hands the PNG to navigator.share; a cancelled share is quiet, a failed one is told', async () => {
  const share = jest.fn().mockRejectedValueOnce(new DOMException('Share canceled', 'AbortError')).mockRejectedValueOnce(new DOMException('Permission denied', 'NotAllowedError')).mockResolvedValue(undefined);
  shareable(share);
  const { panel, user } = await showQr();
  const button = within(panel).getByRole('button', { name: 'Share' });
  // Drawn ahead, so the share runs within the tap's user activation.
  await waitFor(() => expect(render).toHaveBeenCalledTimes(1));

  await user.click(button);
  await waitFor(() => expect(share).toHaveBeenCalledTimes(1));
  const [data] = share.mock.calls[0] as [{ files: File[]; title: string }];
  expect(data.files).toHaveLength(1);
  expect(data.files[0]).toMatchObject({ name: 'qr-KBANK-100.00.png', type: 'image/png' });
  expect(data.title).toBe('Amount: 100.00 baht');
  expect(within(panel).queryByRole('alert')).not.toBeInTheDocument();

  await user.click(button);
  await waitFor(() => expect(within(panel).getByRole('alert')).toHaveTextContent('The QR code could not be shared. Use Save QR instead.'));
  await user.click(button);
  await waitFor(() => expect(share).toHaveBeenCalledTimes(3));
  await waitFor(() => expect(within(panel).queryByRole('alert')).not.toBeInTheDocument());
  // The same card each time: drawn once.
  expect(render).toHaveBeenCalledTimes(1);
});

it('labels and card lines in Thai', async () => {
  shareable(jest.fn().mockResolvedValue(undefined));
  const { panel } = await showQr('th');
  expect(within(panel).getByRole('button', { name: 'บันทึกคิวอาร์โค้ด' })).toBeInTheDocument();
  expect(within(panel).getByRole('button', { name: 'แชร์' })).toBeInTheDocument();
  await waitFor(() => expect(render).toHaveBeenCalled());
  expect(render.mock.calls.at(-1)![1]).toEqual(['ยอด 100.00 บาท', 'ธนาคารกสิกรไทย', expect.stringMatching(/^ชำระก่อน /)]);
});
