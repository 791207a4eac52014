import QRCode from 'qrcode';
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import { slipVerify } from 'promptparse/generate';
import { formatSatang } from '../../../ledger/money';

/**
 * Makes the slip image a bank app would hand the payer: a receipt card with the amount and time and,
 * at the bottom right, the Slip Verify mini-QR (sending bank + transaction reference) drawn from
 * qrcode's module matrix with a 4-module quiet zone. The demo bank page and the tests upload these.
 */
export interface SlipImageInput {
  /** 3-digit Thai bank code of the sender (004 KBANK, 014 SCB, ...). */
  sendingBank: string;
  transRef: string;
  amountSatang?: number;
  at?: Date;
  /** Header colour, e.g. the sender bank's brand colour. */
  accent?: [number, number, number];
}

type Rgb = [number, number, number];

class Canvas {
  readonly data: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
    bg: Rgb,
  ) {
    this.data = Buffer.alloc(width * height * 4);
    this.rect(0, 0, width, height, bg);
  }
  rect(x: number, y: number, w: number, h: number, [r, g, b]: Rgb): void {
    for (let yy = Math.max(0, y); yy < Math.min(this.height, y + h); yy++) {
      for (let xx = Math.max(0, x); xx < Math.min(this.width, x + w); xx++) {
        const i = (yy * this.width + xx) * 4;
        this.data[i] = r;
        this.data[i + 1] = g;
        this.data[i + 2] = b;
        this.data[i + 3] = 255;
      }
    }
  }
  /** Text in a 5x7 bitmap font (digits and the few symbols a receipt needs). */
  text(x: number, y: number, s: string, scale: number, color: Rgb): void {
    let cx = x;
    for (const ch of s) {
      const glyph = FONT[ch];
      if (glyph) {
        glyph.forEach((row, gy) => {
          for (let gx = 0; gx < 5; gx++) if (row & (1 << (4 - gx))) this.rect(cx + gx * scale, y + gy * scale, scale, scale, color);
        });
      }
      cx += 6 * scale;
    }
  }
}

// 5x7 glyphs, one number per row, bit 4 = leftmost column.
const FONT: Record<string, number[]> = {
  '0': [14, 17, 19, 21, 25, 17, 14],
  '1': [4, 12, 4, 4, 4, 4, 14],
  '2': [14, 17, 1, 2, 4, 8, 31],
  '3': [31, 2, 4, 2, 1, 17, 14],
  '4': [2, 6, 10, 18, 31, 2, 2],
  '5': [31, 16, 30, 1, 1, 17, 14],
  '6': [6, 8, 16, 30, 17, 17, 14],
  '7': [31, 1, 2, 4, 8, 8, 8],
  '8': [14, 17, 17, 14, 17, 17, 14],
  '9': [14, 17, 17, 15, 1, 2, 12],
  '.': [0, 0, 0, 0, 0, 12, 12],
  ',': [0, 0, 0, 0, 12, 4, 8],
  ':': [0, 12, 12, 0, 12, 12, 0],
  '/': [1, 1, 2, 4, 8, 16, 16],
  '-': [0, 0, 0, 31, 0, 0, 0],
  ' ': [0, 0, 0, 0, 0, 0, 0],
};

const withThousands = (s: string) => s.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
const two = (n: number) => String(n).padStart(2, '0');

/** The slip's pixels (RGBA) and size. */
export function renderSlip(input: SlipImageInput): { width: number; height: number; data: Buffer } {
  const payload = slipVerify({ sendingBank: input.sendingBank, transRef: input.transRef });
  const qr = QRCode.create(payload, { errorCorrectionLevel: 'M' });
  const modules = qr.modules;
  const moduleSize = 5;
  const quiet = 4;
  const qrPixels = (modules.size + quiet * 2) * moduleSize;

  const width = 480;
  const height = 200 + 200 + qrPixels + 40;
  const c = new Canvas(width, height, [236, 240, 243]);
  const accent: Rgb = input.accent ?? [19, 138, 54];
  const ink: Rgb = [33, 37, 41];
  const grey: Rgb = [173, 181, 189];

  // Card with a border, a header band and a check badge.
  c.rect(16, 16, width - 32, height - 32, [206, 212, 218]);
  c.rect(18, 18, width - 36, height - 36, [255, 255, 255]);
  c.rect(18, 18, width - 36, 72, accent);
  c.rect(width / 2 - 22, 32, 44, 44, [255, 255, 255]);
  c.rect(width / 2 - 14, 52, 8, 14, accent);
  c.rect(width / 2 - 6, 40, 8, 26, accent);

  // Thai slips print Bangkok time (UTC+7, no daylight saving).
  const at = new Date((input.at ?? new Date()).getTime() + 7 * 3600_000);
  const stamp = `${two(at.getUTCDate())}/${two(at.getUTCMonth() + 1)}/${at.getUTCFullYear()} ${two(at.getUTCHours())}:${two(at.getUTCMinutes())}`;
  c.text(40, 110, stamp, 3, ink);

  // "From" and "to" blocks as the grey text lines a receipt shows.
  for (let i = 0; i < 4; i++) c.rect(40, 160 + i * 34, i % 2 === 0 ? 260 : 180, 12, grey);

  if (input.amountSatang !== undefined) {
    const [intPart, dec] = formatSatang(input.amountSatang).split('.');
    c.text(40, 310, `${withThousands(intPart)}.${dec}`, 6, ink);
  }
  c.rect(40, 370, width - 80, 2, grey);

  // The mini-QR, bottom right, on white with its quiet zone.
  const qx = width - 40 - qrPixels;
  const qy = 390;
  c.rect(qx, qy, qrPixels, qrPixels, [255, 255, 255]);
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.data[row * modules.size + col]) {
        c.rect(qx + (col + quiet) * moduleSize, qy + (row + quiet) * moduleSize, moduleSize, moduleSize, [0, 0, 0]);
      }
    }
  }
  c.rect(40, qy + 20, qx - 80, 12, grey);
  c.rect(40, qy + 54, qx - 120, 12, grey);
  return { width, height, data: c.data };
}

export function makeSlipPng(input: SlipImageInput): Buffer {
  const { width, height, data } = renderSlip(input);
  const png = new PNG({ width, height });
  data.copy(png.data);
  // One fixed filter: adaptive filtering (the default) costs seconds on a flat picture for no real gain.
  return PNG.sync.write(png, { filterType: 1 });
}

export function makeSlipJpeg(input: SlipImageInput, quality = 90): Buffer {
  const { width, height, data } = renderSlip(input);
  return jpeg.encode({ width, height, data }, quality).data;
}
