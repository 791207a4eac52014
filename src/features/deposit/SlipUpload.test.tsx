import { screen, waitFor, within } from '@testing-library/react';
import { File as NodeFile } from 'node:buffer';
import { delay, http, HttpResponse } from 'msw';

import { renderWithProviders } from '../../test/support/render';
import { errorResponse, server } from '../../test/support/server';
import type { Slip } from './depositApi';
import { playerSession } from '../../test/support/deposit';
import { slipUploadResult } from './slipResult';
import { SlipUpload } from './SlipUpload';

const slip = (over: Partial<Slip> = {}): Slip => ({ id: 'slp_1', createdAt: '2026-01-02T03:04:05Z', amount: 100, status: 'SUCCESS', note: null, link: null, reference: 'R1', ...over });
const exists = (key: string) => ['slipReasons.SLIP_REFNO_DUPLICATED', 'errors.SLIP_INVALID_FILE', 'errors.GENERIC'].includes(key);
const httpError = (message: string, status = 422) => ({ error: { status, data: { message } } });

describe('slip upload result mapping', () => {
  it.each([
    ['credited', { data: { message: 'SUCCESS', slip: slip() } }, { kind: 'credited', amount: 100, reference: 'R1', at: '2026-01-02T03:04:05Z' }],
    ['credited, no reference read', { data: { message: 'SUCCESS', slip: slip({ reference: null }) } }, { kind: 'credited', amount: 100, reference: 'slp_1', at: '2026-01-02T03:04:05Z' }],
    ['in progress', { data: { message: 'SUCCESS', slip: slip({ status: 'IN_PROGRESS', amount: 0 }) } }, { kind: 'pending' }],
    ['a refusal reason of the slip table', httpError('SLIP_REFNO_DUPLICATED', 409), { kind: 'refused', code: 'SLIP_REFNO_DUPLICATED', textKey: 'slipReasons.SLIP_REFNO_DUPLICATED' }],
    ['an upload error code', httpError('SLIP_INVALID_FILE', 400), { kind: 'refused', code: 'SLIP_INVALID_FILE', textKey: 'errors.SLIP_INVALID_FILE' }],
    ['a failed slip in a 200 answer', { data: { message: 'SLIP_REFNO_DUPLICATED', slip: slip({ status: 'FAILED', note: 'SLIP_REFNO_DUPLICATED' }) } }, { kind: 'refused', code: 'SLIP_REFNO_DUPLICATED', textKey: 'slipReasons.SLIP_REFNO_DUPLICATED' }],
    ['an unknown code', httpError('WHATEVER'), { kind: 'refused', code: 'WHATEVER', textKey: 'errors.GENERIC' }],
    ['no answer at all', { error: { status: 'TIMEOUT_ERROR', error: 'timeout' } }, { kind: 'refused', code: 'TIMEOUT', textKey: 'errors.GENERIC' }],
  ] as const)('%s', (_name, answer, expected) => {
    expect(slipUploadResult(answer as Parameters<typeof slipUploadResult>[0], exists)).toEqual(expected);
  });
});

describe('slip upload', () => {
  // Node's File: under jest-fixed-jsdom, FormData is Node's and refuses jsdom's File (a browser has one kind).
  const png = () => new NodeFile([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], 'slip.png', { type: 'image/png' });
  const render = () => renderWithProviders(<SlipUpload />, { preloadedState: playerSession });
  const lookup = (over = {}) => http.get('/api/lookup/slip', () => HttpResponse.json({ isOpen: true, closeFrom: '23:50', closeTo: '00:10', uploadWindowMinutes: 60, ...over }));

  it("offers the camera on phones and a plain picker, both for images; says the lookup's upload window", async () => {
    server.use(lookup());
    render();
    const camera = screen.getByLabelText('Take a photo');
    const picker = screen.getByLabelText('Choose a picture');
    expect(camera).toHaveAttribute('accept', 'image/*');
    expect(camera).toHaveAttribute('capture', 'environment');
    expect(picker).toHaveAttribute('accept', 'image/*');
    expect(picker).not.toHaveAttribute('capture');
    expect(await screen.findByText('Upload the slip within 60 minutes of the transfer.')).toBeInTheDocument();
  });

  it('sends the picture as multipart field `file`, shows progress, then the credited amount', async () => {
    let received: File | null = null;
    server.use(
      lookup(),
      http.post('/api/wallet/slip', async ({ request }) => {
        const form = await request.formData();
        received = form.get('file') as File;
        await delay(50);
        return HttpResponse.json({ message: 'SUCCESS', slip: slip({ amount: 250 }) });
      }),
    );
    const { user } = render();
    await user.upload(screen.getByLabelText('Choose a picture'), png() as unknown as File);
    expect(await screen.findByRole('progressbar', { name: 'Uploading the slip…' })).toBeInTheDocument();
    expect(screen.getByLabelText('Choose a picture')).toBeDisabled();
    expect(await screen.findByText('Slip accepted: 250.00 baht is now in your wallet.')).toBeInTheDocument();
    // Issue 12: on its receipt.
    const receipt = screen.getByTestId('receipt');
    expect(within(receipt).getByRole('heading', { name: 'Deposit receipt' })).toBeInTheDocument();
    expect(within(receipt).getByTestId('receipt-amount')).toHaveTextContent('250.00 baht');
    expect(within(receipt).getByTestId('receipt-to')).toHaveTextContent('Wallet');
    expect(within(receipt).getByTestId('receipt-reference')).toHaveTextContent('R1');
    expect(within(receipt).getByTestId('receipt-status')).toHaveTextContent('Success');
    expect(within(receipt).getByTestId('receipt-time')).toHaveAttribute('dateTime', '2026-01-02T03:04:05Z');
    expect(received).not.toBeNull();
    expect(received!.name).toBe('slip.png');
    expect(received!.size).toBe(11);
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
  });

  it('shows the refusal with the reason of the slip table, in the player language', async () => {
    server.use(lookup(), http.post('/api/wallet/slip', () => errorResponse('SLIP_REFNO_DUPLICATED', 409)));
    const { user } = render();
    await user.upload(screen.getByLabelText('Take a photo'), png() as unknown as File);
    await waitFor(() => expect(screen.getByTestId('slip-status')).toHaveTextContent('Slip not accepted: Duplicate slip'));
  });

  it('says when slip upload is closed and keeps the pickers off', async () => {
    server.use(lookup({ isOpen: false }));
    render();
    expect(await screen.findByTestId('slip-closed')).toHaveTextContent('Slip upload is closed between 23:50 and 00:10.');
    expect(screen.getByLabelText('Take a photo')).toBeDisabled();
  });
});
