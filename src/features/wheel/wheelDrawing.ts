/** Spec §9: the wheel canvas is 350 px (CSS pixels; it shrinks with the screen below that). */
export const WHEEL_SIZE = 350;

/** What drawing the wheel needs of a 2D context (a test hands in a recording one; jsdom has no canvas). */
export type WheelContext = Pick<
  CanvasRenderingContext2D,
  'setTransform' | 'clearRect' | 'beginPath' | 'moveTo' | 'arc' | 'closePath' | 'fill' | 'stroke' | 'save' | 'restore' | 'translate' | 'rotate' | 'fillText' | 'measureText'
> & {
  fillStyle: CanvasRenderingContext2D['fillStyle'];
  strokeStyle: CanvasRenderingContext2D['strokeStyle'];
  lineWidth: number;
  font: string;
  textAlign: CanvasTextAlign;
  textBaseline: CanvasTextBaseline;
};

export interface DrawnSlice {
  label: string;
  bgColor: string;
  textColor: string;
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;
/** Operator colours are #rrggbb; anything else is not handed to the canvas. */
export const safeColor = (value: string | null | undefined, fallback: string) => (typeof value === 'string' && HEX.test(value.trim()) ? value.trim() : fallback);

/** Bitmap pixels per CSS pixel: the screen's density, so text stays crisp on high-density screens. */
export function pixelRatio(devicePixelRatio: number | undefined): number {
  return typeof devicePixelRatio === 'number' && Number.isFinite(devicePixelRatio) && devicePixelRatio > 0 ? Math.min(devicePixelRatio, 4) : 1;
}

/** Gives the canvas a bitmap of `size` CSS pixels at `ratio` device pixels each; the page's CSS sets its shown size. */
export function sizeCanvas(canvas: Pick<HTMLCanvasElement, 'width' | 'height'>, size: number, ratio: number): void {
  canvas.width = Math.round(size * ratio);
  canvas.height = Math.round(size * ratio);
}

const FONT_FAMILY = "'Noto Sans', 'Noto Sans Thai', 'Noto Sans Lao', system-ui, sans-serif";

/** The label's user-perceived characters (code points where the browser has no Intl.Segmenter). */
function graphemes(label: string): string[] {
  if (typeof Intl !== 'undefined' && typeof Intl.Segmenter === 'function') {
    return Array.from(new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(label), (part) => part.segment);
  }
  return Array.from(label);
}

/** The label cut to `width` with an ellipsis (whole characters; Thai and Lao marks stay with their letter). */
export function fitLabel(ctx: Pick<WheelContext, 'measureText'>, label: string, width: number): string {
  if (ctx.measureText(label).width <= width) return label;
  const chars = graphemes(label);
  for (let keep = chars.length - 1; keep > 0; keep -= 1) {
    const cut = `${chars.slice(0, keep).join('')}…`;
    if (ctx.measureText(cut).width <= width) return cut;
  }
  return '…';
}

/** Whether a label along canvas angle `angle` (radians, clockwise from 3 o'clock) points left, so would read upside down. */
export function labelFlipped(angle: number): boolean {
  const turn = ((angle % (2 * Math.PI)) + 2 * Math.PI) % (2 * Math.PI);
  return turn > Math.PI / 2 + 1e-9 && turn < (3 * Math.PI) / 2 - 1e-9;
}

/**
 * Draws the slices clockwise from the top (the setup's order), each in its colours with its label along its
 * middle, reading from the hub out (from the rim in on the left half, so none is upside down). Everything is in CSS pixels, scaled by `ratio` into the bitmap.
 */
export function drawWheel(ctx: WheelContext, slices: readonly DrawnSlice[], size: number, ratio: number): void {
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, size, size);
  const count = slices.length;
  if (count === 0) return;
  const centre = size / 2;
  const radius = centre - 6;
  const step = (2 * Math.PI) / count;
  const fontSize = count > 12 ? 12 : count > 8 ? 14 : 16;

  slices.forEach((slice, index) => {
    // Canvas angles run clockwise from 3 o'clock; the wheel's from 12.
    const start = -Math.PI / 2 + index * step;
    ctx.beginPath();
    ctx.moveTo(centre, centre);
    ctx.arc(centre, centre, radius, start, start + step);
    ctx.closePath();
    ctx.fillStyle = safeColor(slice.bgColor, index % 2 === 0 ? '#0b6e4f' : '#f4f6f5');
    ctx.fill();
    ctx.strokeStyle = '#ffffff';
    ctx.lineWidth = 2;
    ctx.stroke();

    ctx.save();
    ctx.translate(centre, centre);
    const middle = start + step / 2;
    // A label on the left half would read upside down along its radius: turned half a turn, it reads from the
    // rim in, upright (issue 40 item 11).
    const flipped = labelFlipped(middle);
    ctx.rotate(flipped ? middle + Math.PI : middle);
    ctx.fillStyle = safeColor(slice.textColor, index % 2 === 0 ? '#ffffff' : '#1c2421');
    ctx.font = `600 ${fontSize}px ${FONT_FAMILY}`;
    ctx.textAlign = flipped ? 'left' : 'right';
    ctx.textBaseline = 'middle';
    ctx.fillText(fitLabel(ctx, slice.label, radius * 0.62), flipped ? -(radius - 14) : radius - 14, 0);
    ctx.restore();
  });

  // Rim and hub.
  ctx.beginPath();
  ctx.arc(centre, centre, radius, 0, 2 * Math.PI);
  ctx.strokeStyle = '#08543c';
  ctx.lineWidth = 6;
  ctx.stroke();
  ctx.beginPath();
  ctx.arc(centre, centre, 18, 0, 2 * Math.PI);
  ctx.fillStyle = '#ffffff';
  ctx.fill();
  ctx.strokeStyle = '#08543c';
  ctx.lineWidth = 4;
  ctx.stroke();
}
