import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import jsQR from 'jsqr';
import { slipVerify } from 'promptparse/validate';
import { checkImage } from '../../../lib/image-header';

/**
 * Reading an uploaded slip: the type comes from the bytes (JPEG or PNG only, whatever the name says),
 * the pixels from pngjs/jpeg-js, the mini-QR from jsQR, and its meaning from promptparse's Slip Verify
 * validator (sending bank + transaction reference, CRC checked). Nothing here trusts the file name.
 */
export type ImageType = 'image/jpeg' | 'image/png';

export const MAX_SLIP_BYTES = 5 * 1024 * 1024;
/** Decoded-size guard against decompression bombs: a phone screenshot is 2-4 MP. */
export const MAX_SLIP_MEGAPIXELS = 24;

export function sniffImageType(bytes: Buffer): ImageType | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  return null;
}

export const extensionOf = (type: ImageType): string => (type === 'image/png' ? 'png' : 'jpg');

/** Why a slip could not be read, as the slip reason codes of spec §8. */
export type SlipReadFailure = 'SLIP_INVALID_FILE' | 'IMG_SIZE_UNABLE_TO_PROCESS' | 'INVALID_SLIP';

export class SlipReadError extends Error {
  constructor(public readonly code: SlipReadFailure) {
    super(code);
    this.name = 'SlipReadError';
  }
}

export interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray; // RGBA
}

export function decodePixels(bytes: Buffer): Pixels {
  const type = sniffImageType(bytes);
  if (!type) throw new SlipReadError('SLIP_INVALID_FILE');
  // The header first (server/lib/image-header.ts): pngjs inflates an interlaced PNG without a bound (a 3 MB file grew
  // a server by gigabytes), so interlaced and oversized pictures are refused before a decoder sees them.
  const head = checkImage(bytes, { maxPixels: MAX_SLIP_MEGAPIXELS * 1e6, maxSide: 0x7fffffff, refuseInterlacedPng: true });
  if (head.problem === 'malformed') throw new SlipReadError('INVALID_SLIP');
  if (head.problem) throw new SlipReadError('IMG_SIZE_UNABLE_TO_PROCESS');
  if (type === 'image/png') {
    try {
      const png = PNG.sync.read(bytes);
      return { width: png.width, height: png.height, data: new Uint8ClampedArray(png.data.buffer, png.data.byteOffset, png.data.length) };
    } catch {
      throw new SlipReadError('INVALID_SLIP');
    }
  }
  try {
    const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: MAX_SLIP_MEGAPIXELS, maxMemoryUsageInMB: 256 });
    return { width: img.width, height: img.height, data: new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length) };
  } catch (e) {
    if (/maxResolutionInMP|maxMemoryUsage/i.test(String((e as Error)?.message))) throw new SlipReadError('IMG_SIZE_UNABLE_TO_PROCESS');
    throw new SlipReadError('INVALID_SLIP');
  }
}

/** Halves an image (2x2 box filter): jsQR finds small finder patterns more reliably on big photos this way. */
function halve(p: Pixels): Pixels {
  const width = Math.floor(p.width / 2);
  const height = Math.floor(p.height / 2);
  const data = new Uint8ClampedArray(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < 4; c++) {
        const i = (r: number, col: number) => ((y * 2 + r) * p.width + (x * 2 + col)) * 4 + c;
        data[(y * width + x) * 4 + c] = (p.data[i(0, 0)] + p.data[i(0, 1)] + p.data[i(1, 0)] + p.data[i(1, 1)]) >> 2;
      }
    }
  }
  return { width, height, data };
}

/** Every QR text found in the image, trying the full size first, then smaller versions of big images. */
export function readQrText(pixels: Pixels): string | null {
  let p = pixels;
  for (let attempt = 0; attempt < 3; attempt++) {
    const found = jsQR(p.data, p.width, p.height, { inversionAttempts: 'attemptBoth' });
    if (found?.data) return found.data;
    if (p.width < 400 || p.height < 400) break;
    p = halve(p);
  }
  return null;
}

export interface SlipQr {
  /** Sending bank as the 3-digit Thai bank code the mini-QR carries (e.g. 004 = KBANK). */
  sendingBank: string;
  /** The bank's transaction reference: the slip's identity (duplicates are decided on it). */
  transRef: string;
  payload: string;
}

/** Validates a decoded QR text as a Slip Verify mini-QR (structure and CRC). */
export function parseSlipQr(text: string): SlipQr | null {
  const data = slipVerify(text);
  if (!data) return null;
  if (!/^\d{3}$/.test(data.sendingBank) || !/^[A-Za-z0-9]{6,40}$/.test(data.transRef)) return null;
  return { sendingBank: data.sendingBank, transRef: data.transRef, payload: text };
}

/** Bytes of an uploaded slip to its mini-QR; throws SlipReadError with the reason code. */
export function readSlip(bytes: Buffer, maxBytes: number = MAX_SLIP_BYTES): SlipQr {
  if (bytes.length === 0 || !sniffImageType(bytes)) throw new SlipReadError('SLIP_INVALID_FILE');
  if (bytes.length > maxBytes) throw new SlipReadError('IMG_SIZE_UNABLE_TO_PROCESS');
  const text = readQrText(decodePixels(bytes));
  const slip = text === null ? null : parseSlipQr(text);
  if (!slip) throw new SlipReadError('INVALID_SLIP');
  return slip;
}

/**
 * Thai interbank codes (Bank of Thailand) of the banks the app lists, as the mini-QR's sending bank
 * carries them. Used to compare the slip's sender with the player's registered bank.
 */
export const THAI_BANK_NUMBERS: Record<string, string> = {
  BBL: '002',
  KBANK: '004',
  KTB: '006',
  TMB: '011',
  TTB: '011',
  SCB: '014',
  CIMB: '022',
  UOB: '024',
  BAY: '025',
  GSB: '030',
  GHB: '033',
  BAAC: '034',
  TBANK: '065',
  ISBT: '066',
  TISCO: '067',
  KK: '069',
  LHBANK: '073',
};

export const bankNumberOf = (bankCode: string): string | null => THAI_BANK_NUMBERS[bankCode.toUpperCase()] ?? null;
