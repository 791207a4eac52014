import { PNG } from 'pngjs';
import { makeSlipJpeg, makeSlipPng } from './slip-image';
import { SlipReadError, bankNumberOf, parseSlipQr, readSlip, sniffImageType } from './slip-qr';
import { slipVerify } from 'promptparse/generate';

const failure = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    if (e instanceof SlipReadError) return e.code;
    throw e;
  }
  return 'no error';
};

test('a generated PNG slip decodes back to its sending bank and reference', () => {
  const png = makeSlipPng({ sendingBank: '004', transRef: '015331171203BTF05512', amountSatang: 123450, at: new Date() });
  expect(sniffImageType(png)).toBe('image/png');
  expect(readSlip(png)).toMatchObject({ sendingBank: '004', transRef: '015331171203BTF05512' });
});

test('a JPEG slip decodes too', () => {
  const jpg = makeSlipJpeg({ sendingBank: '014', transRef: '2026112512345678', amountSatang: 100 });
  expect(sniffImageType(jpg)).toBe('image/jpeg');
  expect(readSlip(jpg)).toMatchObject({ sendingBank: '014', transRef: '2026112512345678' });
});

test('the type comes from the bytes: a PDF (whatever its name) and text are not images', () => {
  const pdf = Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog >> endobj\n%%EOF');
  expect(sniffImageType(pdf)).toBeNull();
  expect(failure(() => readSlip(pdf))).toBe('SLIP_INVALID_FILE');
  expect(failure(() => readSlip(Buffer.alloc(0)))).toBe('SLIP_INVALID_FILE');
  expect(failure(() => readSlip(Buffer.from('GIF89a....')))).toBe('SLIP_INVALID_FILE');
});

test('an image without a slip QR, or a truncated one, is INVALID_SLIP', () => {
  const blank = new PNG({ width: 300, height: 300 });
  blank.data.fill(255);
  expect(failure(() => readSlip(PNG.sync.write(blank)))).toBe('INVALID_SLIP');
  const png = makeSlipPng({ sendingBank: '004', transRef: 'ABC123456789', amountSatang: 100 });
  expect(failure(() => readSlip(png.subarray(0, 200)))).toBe('INVALID_SLIP');
});

test('a file over the size cap, or a huge declared picture, is not processed', () => {
  const png = makeSlipPng({ sendingBank: '004', transRef: 'ABC123456789' });
  expect(failure(() => readSlip(png, png.length - 1))).toBe('IMG_SIZE_UNABLE_TO_PROCESS');
  const bomb = Buffer.from(png);
  bomb.writeUInt32BE(100_000, 16); // IHDR width
  bomb.writeUInt32BE(100_000, 20); // IHDR height
  expect(failure(() => readSlip(bomb))).toBe('IMG_SIZE_UNABLE_TO_PROCESS');
});

test('only Slip Verify mini-QR texts with a valid CRC are slips', () => {
  const text = slipVerify({ sendingBank: '002', transRef: 'REF0000001' });
  expect(parseSlipQr(text)).toEqual({ sendingBank: '002', transRef: 'REF0000001', payload: text });
  expect(parseSlipQr(text.slice(0, -4) + '0000')).toBeNull();
  expect(parseSlipQr('https://example.com')).toBeNull();
  expect(bankNumberOf('kbank')).toBe('004');
  expect(bankNumberOf('BCEL')).toBeNull();
});
