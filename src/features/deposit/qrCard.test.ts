import jsQR from 'jsqr';

import { i18n } from '../../core/i18n';
import { CARD_WIDTH, canShareFiles, cardHeight, drawQrCard, formatExpiry, qrCardLines, qrFileName, type CardContext } from './qrCard';
import { qrModules } from './qrPng';
import { QR_PAYLOAD } from '../../test/support/deposit';

/** A 2D context that records what is drawn (jsdom has no canvas); text is 10 px a character. */
function recordingContext() {
  const rects: { x: number; y: number; w: number; h: number; fill: unknown }[] = [];
  const texts: { text: string; x: number; y: number; font: string; fill: unknown }[] = [];
  const ctx = {
    fillStyle: '' as unknown,
    font: '',
    textAlign: 'start',
    textBaseline: 'alphabetic',
    imageSmoothingEnabled: true,
    measureText: (text: string) => ({ width: Array.from(text).length * 10 }),
    fillRect: (x: number, y: number, w: number, h: number) => rects.push({ x, y, w, h, fill: ctx.fillStyle }),
    fillText: (text: string, x: number, y: number) => texts.push({ text, x, y, font: ctx.font, fill: ctx.fillStyle }),
    drawImage: jest.fn(),
  };
  return { ctx: ctx as unknown as CardContext, rects, texts };
}

/** The black rectangles painted into a white RGBA bitmap, as a QR reader would see the saved file. */
function paint(rects: { x: number; y: number; w: number; h: number; fill: unknown }[], width: number, height: number) {
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (const r of rects.filter((rect) => rect.fill === '#000000')) {
    for (let y = Math.round(r.y); y < Math.round(r.y + r.h); y += 1) {
      for (let x = Math.round(r.x); x < Math.round(r.x + r.w); x += 1) data.fill(0, (y * width + x) * 4, (y * width + x) * 4 + 3);
    }
  }
  return data;
}

const EXPIRES = new Date(2026, 10, 26, 16, 35, 0).getTime();
const card = { bankName: 'Kasikornbank', amount: 1500, expiresAt: EXPIRES };

describe('the saved QR card', () => {
  it('names the file by bank and amount', () => {
    expect(qrFileName('KBANK', 100)).toBe('qr-KBANK-100.00.png');
    expect(qrFileName('E2P', 20.5)).toBe('qr-E2P-20.50.png');
    expect(qrFileName('../x y', 1)).toBe('qr-xy-1.00.png');
  });

  it('the lines under the code: amount, bank and expiry time in the player language', async () => {
    expect(qrCardLines(card, 'en', i18n.t)).toEqual(['Amount: 1,500.00 baht', 'Kasikornbank', 'Pay before 26/11/2026 16:35']);
    expect(formatExpiry(new Date(2027, 0, 2, 9, 5).getTime())).toBe('02/01/2027 09:05');
    await i18n.changeLanguage('th');
    const th = qrCardLines({ ...card, bankName: 'ธนาคารกสิกรไทย' }, 'th', i18n.t);
    expect(th).toEqual(['ยอด 1,500.00 บาท', 'ธนาคารกสิกรไทย', 'ชำระก่อน 26/11/2026 16:35']);
    await i18n.changeLanguage('la');
    const la = qrCardLines(card, 'la', i18n.t);
    expect(la[0]).toBe('ຈຳນວນ 1.500,00 ບາດ') // Lao groups with dots, as the screen does (formatAmount);
    expect(la[2]).toBe('ຊຳລະກ່ອນ 26/11/2026 16:35');
  });

  it('draws a code a QR reader decodes to the payload, with the lines under it, centred and fitted to the card', () => {
    const modules = qrModules(QR_PAYLOAD);
    const long = 'ธนาคารกสิกรไทย จำกัด (มหาชน) สาขาสำนักงานใหญ่ พหลโยธิน';
    const lines = ['Amount: 100.00 baht', long, 'Pay before 16:35'];
    const { ctx, rects, texts } = recordingContext();
    drawQrCard(ctx, { modules }, lines);
    const height = cardHeight({ modules }, lines.length);
    expect(rects[0]).toMatchObject({ x: 0, y: 0, w: CARD_WIDTH, h: height, fill: '#ffffff' });
    expect(jsQR(paint(rects, CARD_WIDTH, height), CARD_WIDTH, height)?.data).toBe(QR_PAYLOAD);

    const codeBottom = Math.max(...rects.filter((r) => r.fill === '#000000').map((r) => r.y + r.h));
    expect(texts.map((text) => text.text)).toEqual(lines);
    texts.forEach((text, index) => {
      expect(text.x).toBe(CARD_WIDTH / 2);
      expect(text.y).toBeGreaterThan(index === 0 ? codeBottom : texts[index - 1]!.y);
      expect(text.y).toBeLessThan(height);
    });
    expect(texts[0]!.font).toMatch(/^700 36px .*Noto Sans Thai.*Noto Sans Lao/);
    // The long bank name (54 characters, 10 px each here) is drawn smaller so it fits between the margins.
    const size = Number(/ (\d+)px /.exec(texts[1]!.font)?.[1]);
    expect(size).toBeLessThan(28);
    expect(Array.from(long).length * 10).toBeGreaterThan(CARD_WIDTH - 80);
  });
});

describe('whether Share is offered', () => {
  const nav = navigator as unknown as Record<string, unknown>;
  afterEach(() => {
    delete nav.share;
    delete nav.canShare;
  });

  it('only where the browser can share a PNG file', () => {
    expect(canShareFiles()).toBe(false);
    nav.share = jest.fn();
    nav.canShare = jest.fn(() => false);
    expect(canShareFiles()).toBe(false);
    nav.canShare = jest.fn((data: { files?: File[] }) => data.files?.[0]?.type === 'image/png');
    expect(canShareFiles()).toBe(true);
    nav.canShare = () => {
      throw new TypeError('bad');
    };
    expect(canShareFiles()).toBe(false);
  });
});
