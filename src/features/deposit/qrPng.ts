import { create } from 'qrcode';

/**
 * The QR as a raster image made in plain script (no canvas): a PNG that a long-press in a phone browser offers
 * to save to the gallery, which an SVG shown in an <img> is not. Same code as the server's SVG: error
 * correction M and a quiet zone of 4 modules (server/plugins/deposits/domain/promptpay.ts qrSvg).
 */
export const QR_QUIET_ZONE = 4;

/** The dark (1) and light (0) modules of the payload's QR, row by row, without the quiet zone. */
export interface QrModules {
  size: number;
  dark(row: number, col: number): boolean;
}

export function qrModules(payload: string): QrModules {
  const { modules } = create(payload, { errorCorrectionLevel: 'M' });
  return { size: modules.size, dark: (row, col) => modules.get(row, col) === 1 };
}

/** Pixels per module so the image is at least `minPixels` wide (quiet zone included). */
export function moduleScale(size: number, minPixels: number): number {
  return Math.max(1, Math.ceil(minPixels / (size + 2 * QR_QUIET_ZONE)));
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (const byte of bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return ((b << 16) | a) >>> 0;
}

const u32 = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

function chunk(type: string, data: Uint8Array): number[] {
  const body = new Uint8Array(4 + data.length);
  for (let i = 0; i < 4; i += 1) body[i] = type.charCodeAt(i);
  body.set(data, 4);
  return [...u32(data.length), ...body, ...u32(crc32(body))];
}

/** A zlib stream of stored (uncompressed) blocks: a 1-bit QR is small enough not to need deflate. */
function zlibStored(raw: Uint8Array): Uint8Array {
  const out: number[] = [0x78, 0x01];
  const MAX = 0xffff;
  for (let at = 0; at < raw.length; at += MAX) {
    const len = Math.min(MAX, raw.length - at);
    const final = at + len >= raw.length ? 1 : 0;
    out.push(final, len & 0xff, len >>> 8, ~len & 0xff, (~len >>> 8) & 0xff);
    for (let i = at; i < at + len; i += 1) out.push(raw[i] ?? 0);
  }
  out.push(...u32(adler32(raw)));
  return Uint8Array.from(out);
}

/** A black-on-white PNG (1-bit greyscale) of the QR, `scale` pixels per module, with the quiet zone. */
export function qrPng(qr: QrModules, scale: number): Uint8Array {
  const width = (qr.size + 2 * QR_QUIET_ZONE) * scale;
  const rowBytes = Math.ceil(width / 8);
  const raw = new Uint8Array((rowBytes + 1) * width).fill(0xff);
  for (let y = 0; y < width; y += 1) {
    const rowStart = y * (rowBytes + 1);
    raw[rowStart] = 0; // filter: none
    const row = Math.floor(y / scale) - QR_QUIET_ZONE;
    if (row < 0 || row >= qr.size) continue;
    for (let x = 0; x < width; x += 1) {
      const col = Math.floor(x / scale) - QR_QUIET_ZONE;
      if (col < 0 || col >= qr.size || !qr.dark(row, col)) continue;
      const at = rowStart + 1 + (x >> 3);
      raw[at] = (raw[at] ?? 0) & ~(0x80 >> (x & 7));
    }
  }
  const header = Uint8Array.from([...u32(width), ...u32(width), 1, 0, 0, 0, 0]); // 1 bit, greyscale
  return Uint8Array.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a,
    ...chunk('IHDR', header),
    ...chunk('IDAT', zlibStored(raw)),
    ...chunk('IEND', new Uint8Array(0)),
  ]);
}

function base64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The on-screen QR: about twice its 220 CSS px, so it stays sharp on high-density screens. */
export const SCREEN_QR_PIXELS = 440;

export function qrPngDataUrl(payload: string, minPixels = SCREEN_QR_PIXELS): string {
  const qr = qrModules(payload);
  return `data:image/png;base64,${base64(qrPng(qr, moduleScale(qr.size, minPixels)))}`;
}
