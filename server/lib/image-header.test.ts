import { checkImage, headerProblem, MAX_HEADER_BYTES, readImageHeader } from './image-header';
import { gifHead, jpegHead, pngHead } from '../test/support/chat';
import { makeSlipJpeg, makeSlipPng } from '../plugins/deposits/domain/slip-image';

/** Image headers read by content, before any decoding (issue 39 row 2). */
const limits = { maxPixels: 24e6, maxSide: 20000, refuseInterlacedPng: true };

test('PNG, JPEG and GIF sizes come from their headers; real encoder output included', () => {
  expect(readImageHeader(pngHead(640, 480))).toEqual({ format: 'png', width: 640, height: 480, interlaced: false });
  expect(readImageHeader(pngHead(640, 480, 1))).toEqual({ format: 'png', width: 640, height: 480, interlaced: true });
  expect(readImageHeader(jpegHead(8064, 6048))).toEqual({ format: 'jpeg', width: 8064, height: 6048, interlaced: false });
  expect(readImageHeader(gifHead(320, 200))).toEqual({ format: 'gif', width: 320, height: 200, interlaced: false });
  const png = makeSlipPng({ sendingBank: '004', transRef: 'HEADER12345678', amountSatang: 100 });
  const jpg = makeSlipJpeg({ sendingBank: '014', transRef: 'HEADER12345678', amountSatang: 100 });
  for (const bytes of [png, jpg]) {
    const h = readImageHeader(bytes);
    expect(h).toMatchObject({ interlaced: false });
    expect(typeof h === 'object' && h !== null && h.width > 100 && h.height > 100).toBe(true);
  }
});

test("a progressive JPEG is marked interlaced; a JPEG's fill bytes and standalone markers are skipped", () => {
  const sof2 = Buffer.from(jpegHead(100, 50));
  sof2[sof2.indexOf(Buffer.from([0xff, 0xc0]), 2) + 1] = 0xc2;
  expect(readImageHeader(sof2)).toMatchObject({ width: 100, height: 50, interlaced: true });
  const filled = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xff, 0xff]), jpegHead(30, 20).subarray(3)]);
  expect(readImageHeader(filled)).toMatchObject({ width: 30, height: 20 });
});

test("'more' while the header is still to come; null for anything that is not a well-formed header", () => {
  expect(readImageHeader(pngHead(10, 10).subarray(0, 20))).toBe('more');
  expect(readImageHeader(jpegHead(10, 10).subarray(0, 12))).toBe('more');
  expect(readImageHeader(gifHead(10, 10).subarray(0, 7))).toBe('more');
  expect(readImageHeader(Buffer.from([0x89]))).toBe('more');
  const badDepth = pngHead(10, 10);
  badDepth[24] = 3; // RGBA at 3 bits does not exist
  const zero = pngHead(0, 10);
  const notIhdr = Buffer.from(pngHead(10, 10));
  notIhdr.write('IDAT', 12, 'latin1');
  const scanFirst = Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 8, 1, 2, 3, 4, 5, 6]);
  const dnl = jpegHead(10, 0);
  for (const b of [badDepth, zero, notIhdr, scanFirst, dnl, gifHead(0, 5), Buffer.from('%PDF-1.7 hello'), Buffer.from('GIF90a0000000')]) expect(readImageHeader(b)).toBeNull();
});

test('headerProblem: too many pixels, a side too long, an interlaced PNG; checkImage on whole files', () => {
  expect(headerProblem({ format: 'png', width: 4000, height: 6000, interlaced: false }, limits)).toBeNull();
  expect(headerProblem({ format: 'png', width: 4000, height: 6001, interlaced: false }, limits)).toBe('too-large');
  expect(headerProblem({ format: 'gif', width: 20001, height: 1, interlaced: false }, limits)).toBe('too-large');
  expect(headerProblem({ format: 'png', width: 10, height: 10, interlaced: true }, limits)).toBe('interlaced');
  // jpeg-js bounds a progressive JPEG's memory itself: only PNG's interlace is refused.
  expect(headerProblem({ format: 'jpeg', width: 10, height: 10, interlaced: true }, limits)).toBeNull();
  expect(checkImage(pngHead(60000, 60000), limits).problem).toBe('too-large');
  expect(checkImage(pngHead(100, 100).subarray(0, 30), limits).problem).toBe('malformed');
  // A JPEG whose frame header would come after MAX_HEADER_BYTES of segments is no image here.
  const app = Buffer.concat([Buffer.from([0xff, 0xe1, 0xff, 0xff]), Buffer.alloc(0xfffd)]);
  const late = Buffer.concat([Buffer.from([0xff, 0xd8]), ...Array(Math.ceil(MAX_HEADER_BYTES / app.length) + 1).fill(app), jpegHead(10, 10).subarray(2)]);
  expect(checkImage(late, limits).problem).toBe('malformed');
});
