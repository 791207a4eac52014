import jsQR from 'jsqr';
import { PNG } from 'pngjs';

import { qrImageSource } from './QrImage';
import { QR_QUIET_ZONE, qrModules, qrPng, qrPngDataUrl, SCREEN_QR_PIXELS } from './qrPng';
import { QR_PAYLOAD as PAYLOAD, QR_SVG } from '../../test/support/deposit';

function decode(bytes: Uint8Array) {
  const png = PNG.sync.read(Buffer.from(bytes));
  return { png, text: jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null };
}

describe('the on-screen QR as a PNG', () => {
  it('is a PNG that a QR reader decodes to the payload, with the quiet zone', () => {
    const qr = qrModules(PAYLOAD);
    const { png, text } = decode(qrPng(qr, 4));
    expect(text).toBe(PAYLOAD);
    expect(png.width).toBe((qr.size + 2 * QR_QUIET_ZONE) * 4);
    expect(png.height).toBe(png.width);
    // The quiet zone is white; the first module of the finder pattern is black.
    const at = (x: number, y: number) => png.data[(y * png.width + x) * 4];
    expect(at(QR_QUIET_ZONE * 4 - 1, QR_QUIET_ZONE * 4 - 1)).toBe(255);
    expect(at(QR_QUIET_ZONE * 4, QR_QUIET_ZONE * 4)).toBe(0);
  });

  it('the data URL is a PNG at least twice the shown size (sharp on dense screens) that decodes to the payload', () => {
    const url = qrPngDataUrl(PAYLOAD);
    expect(url).toMatch(/^data:image\/png;base64,/);
    const { png, text } = decode(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64'));
    expect(png.width).toBeGreaterThanOrEqual(SCREEN_QR_PIXELS);
    expect(text).toBe(PAYLOAD);
  });

  it('the image shows the PNG when the server sends the payload, else the sanitized SVG', () => {
    expect(qrImageSource(QR_SVG, PAYLOAD)).toMatch(/^data:image\/png;base64,/);
    const fallback = qrImageSource('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><path d="M0 0h1"/></svg>');
    expect(fallback).toMatch(/^data:image\/svg\+xml/);
    expect(decodeURIComponent(fallback)).not.toContain('script');
  });
});
