import { formatAmount, formatDateTimeMinutes } from '../../lib/format';
import type { Locale } from '../../lib/locale';
import { sanitizeQrSvg } from './QrImage';
import { QR_QUIET_ZONE, qrModules, type QrModules } from './qrPng';

/**
 * "Save QR": a PNG of the code with the amount, the bank and the expiry time drawn under it, in the player's
 * language, for the gallery (Thai players scan a saved QR in their bank app on the same phone). The texts and
 * the file name are pure; the drawing takes any 2D context (a test hands in a recording one; jsdom has none).
 */
export interface QrCardInput {
  /** The EMVCo payload (our server sends it); without it the server's SVG is drawn instead. */
  payload?: string;
  svg: string;
  bank: string;
  bankName: string;
  amount: number;
  expiresAt: number;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * The time the QR stops being payable, on the phone's clock: DD/MM/YYYY HH:mm like the app's other dates
 * (spec §9). Digits only: browsers without Lao locale data would print an English month name.
 */
export function formatExpiry(expiresAt: number): string {
  return formatDateTimeMinutes(expiresAt);
}

/** The lines drawn under the code, first (largest) to last: amount, bank, expiry. */
export function qrCardLines(input: Pick<QrCardInput, 'bankName' | 'amount' | 'expiresAt'>, locale: Locale, t: Translate): string[] {
  return [
    t('deposit.qr.save.amount', { amount: formatAmount(input.amount, locale) }),
    input.bankName,
    t('deposit.qr.save.expires', { time: formatExpiry(input.expiresAt) }),
  ];
}

/** qr-KBANK-100.00.png: the bank code and amount, nothing a file system could stumble on. */
export function qrFileName(bank: string, amount: number): string {
  const code = bank.replace(/[^A-Za-z0-9]/g, '') || 'bank';
  return `qr-${code}-${amount.toFixed(2)}.png`;
}

export const CARD_WIDTH = 600;
const PAD = 40;
const FONT_FAMILY = "'Noto Sans', 'Noto Sans Thai', 'Noto Sans Lao', system-ui, sans-serif";
/** Per line: weight and largest size; a line too wide for the card is drawn smaller (down to MIN_FONT). */
const LINE_STYLES = [
  { weight: 700, size: 36, color: '#1c2421' },
  { weight: 400, size: 28, color: '#1c2421' },
  { weight: 400, size: 28, color: '#08543c' },
] as const;
const MIN_FONT = 14;
/** Room per line: Thai and Lao marks above and below the letters need more than 1.2. */
const LINE_HEIGHT = 1.6;

export const fontOf = (weight: number, size: number) => `${weight} ${size}px ${FONT_FAMILY}`;

export type CardContext = Pick<CanvasRenderingContext2D, 'fillRect' | 'fillText' | 'measureText' | 'drawImage'> & {
  fillStyle: CanvasRenderingContext2D['fillStyle'];
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
  imageSmoothingEnabled: boolean;
};

/** What the code is drawn from: its modules, or the server's SVG as an image when there is no payload. */
export type QrSource = { modules: QrModules } | { image: CanvasImageSource };

/** The QR's side in the card: whole pixels per module (sharp edges) as large as fits the card. */
export function qrSide(source: QrSource): number {
  if (!('modules' in source)) return CARD_WIDTH - 2 * PAD;
  const count = source.modules.size + 2 * QR_QUIET_ZONE;
  return Math.floor((CARD_WIDTH - 2 * PAD) / count) * count;
}

export function cardHeight(source: QrSource, lineCount: number): number {
  const text = LINE_STYLES.slice(0, lineCount).reduce((sum, style) => sum + Math.ceil(style.size * LINE_HEIGHT), 0);
  return PAD + qrSide(source) + 16 + text + PAD;
}

/** The largest size up to `size` at which `text` fits `width` (MIN_FONT at least). */
function fitFont(ctx: CardContext, text: string, weight: number, size: number, width: number): number {
  for (let s = size; s > MIN_FONT; s -= 2) {
    ctx.font = fontOf(weight, s);
    if (ctx.measureText(text).width <= width) return s;
  }
  ctx.font = fontOf(weight, MIN_FONT);
  return MIN_FONT;
}

/** Draws the whole card (white, CARD_WIDTH x cardHeight) at the context's origin. */
export function drawQrCard(ctx: CardContext, source: QrSource, lines: readonly string[]): void {
  const side = qrSide(source);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, CARD_WIDTH, cardHeight(source, lines.length));
  const left = (CARD_WIDTH - side) / 2;
  if ('modules' in source) {
    const { modules } = source;
    const scale = side / (modules.size + 2 * QR_QUIET_ZONE);
    ctx.fillStyle = '#000000';
    for (let row = 0; row < modules.size; row += 1) {
      for (let col = 0; col < modules.size; col += 1) {
        if (modules.dark(row, col)) ctx.fillRect(left + (col + QR_QUIET_ZONE) * scale, PAD + (row + QR_QUIET_ZONE) * scale, scale, scale);
      }
    }
  } else {
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(source.image, left, PAD, side, side);
  }
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  let top = PAD + side + 16;
  lines.forEach((line, index) => {
    const style = LINE_STYLES[Math.min(index, LINE_STYLES.length - 1)]!;
    const height = Math.ceil(style.size * LINE_HEIGHT);
    fitFont(ctx, line, style.weight, style.size, CARD_WIDTH - 2 * PAD);
    ctx.fillStyle = style.color;
    ctx.fillText(line, CARD_WIDTH / 2, top + height / 2);
    top += height;
  });
}

/** The server's SVG (already sanitized) as a loaded image, for a server that sends no payload. */
function svgImage(svg: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('QR image did not load'));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}

/** Waits for the web fonts the lines need (Thai and Lao are loaded only when first used). */
async function fontsFor(lines: readonly string[]): Promise<void> {
  const fonts = typeof document !== 'undefined' ? document.fonts : undefined;
  if (!fonts) return;
  const text = lines.join(' ');
  await Promise.all([...new Set(LINE_STYLES.map((s) => fontOf(s.weight, s.size)))].map((font) => fonts.load(font, text).catch(() => [])));
  await fonts.ready;
}

/** The card as a PNG file named for the bank and amount. */
export async function renderQrCard(input: QrCardInput, lines: readonly string[]): Promise<File> {
  const source: QrSource = input.payload ? { modules: qrModules(input.payload) } : { image: await svgImage(sanitizeQrSvg(input.svg)) };
  await fontsFor(lines);
  const canvas = document.createElement('canvas');
  canvas.width = CARD_WIDTH;
  canvas.height = cardHeight(source, lines.length);
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  drawQrCard(ctx, source, lines);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the canvas gave no PNG');
  return new File([blob], qrFileName(input.bank, input.amount), { type: 'image/png' });
}

/** Hands the file to the browser as a download (the phone's downloads or gallery). */
export function downloadFile(file: File): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.rel = 'noopener';
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has read the URL by the time this runs; revoking at once can cancel it in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Whether this browser shares a PNG file (Web Share level 2); a desktop browser usually does not. */
export function canShareFiles(): boolean {
  if (typeof navigator === 'undefined' || typeof navigator.share !== 'function' || typeof navigator.canShare !== 'function') return false;
  try {
    return navigator.canShare({ files: [new File([new Uint8Array(8)], 'qr.png', { type: 'image/png' })] });
  } catch {
    return false;
  }
}
