/**
 * Draws the installable app's icons (the web manifest's icons, public/icons/*.png): the product's green with a
 * white wallet glyph, our own drawing, no copied logo. Deterministic: the same code draws the same bytes, and
 * server/http/pwa/pwa.test.ts runs --check.
 *
 *   node --import tsx scripts/draw-icons.ts           # rewrites public/icons/
 *   node --import tsx scripts/draw-icons.ts --check   # exit 1 when a committed icon is not what this draws
 *
 * - icon-192.png, icon-512.png (purpose "any"): a green rounded square on transparent corners, the glyph large.
 * - maskable-512.png (purpose "maskable"): green to every edge (the platform cuts its own shape) and the glyph
 *   inside the safe zone, the centred circle of radius 0.4 x size that every mask keeps.
 * - favicon-32.png: the pages' favicon, drawn as icon-192.png (`FAVICON`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { PNG } from 'pngjs';

export const BRAND_GREEN = '#0b6e4f';
/** The three paints, by index: transparent, green, white (r, g, b, a). */
const PAINTS = [
  [0, 0, 0, 0],
  [0x0b, 0x6e, 0x4f, 255],
  [255, 255, 255, 255],
] as const;
const CLEAR = 0;
const GREEN = 1;
const WHITE = 2;

/** The radius (fraction of the size) of the maskable safe zone, from the W3C manifest spec. */
export const SAFE_ZONE_RADIUS = 0.4;

export interface IconSpec {
  file: string;
  size: number;
  maskable: boolean;
}

export const ICONS: IconSpec[] = [
  { file: 'icon-192.png', size: 192, maskable: false },
  { file: 'icon-512.png', size: 512, maskable: false },
  { file: 'maskable-512.png', size: 512, maskable: true },
];

/**
 * The pages' favicon (webpack's html-webpack-plugin `favicon`), the same drawing. A PNG, not an SVG: the browser
 * decodes a favicon in the page's renderer, and an SVG one is a whole SVG document (the old one's `<text>` also
 * went through the system's font fallback): a 55 ms task on the main thread here, 220 ms at Lighthouse's 4x.
 */
export const FAVICON: IconSpec = { file: 'favicon-32.png', size: 32, maskable: false };

/** Every image this script draws. */
const DRAWN: IconSpec[] = [...ICONS, FAVICON];

export const ICONS_DIR = path.resolve(__dirname, '..', 'public', 'icons');

/** Inside a rounded rectangle [x0,x1] x [y0,y1] with corner radius r (all in the unit square). */
function inRoundRect(x: number, y: number, x0: number, y0: number, x1: number, y1: number, r: number): boolean {
  if (x < x0 || x > x1 || y < y0 || y > y1) return false;
  const cx = Math.min(Math.max(x, x0 + r), x1 - r);
  const cy = Math.min(Math.max(y, y0 + r), y1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

/**
 * The colour at a point of the unit square. The glyph is drawn in a box centred on (0.5, 0.5) and scaled by
 * `scale`: a card sticking out of the wallet's top, the wallet's body, and its clasp (a green pocket on the
 * right with a white stud).
 */
function paintAt(u: number, v: number, maskable: boolean): number {
  const background = maskable || inRoundRect(u, v, 0, 0, 1, 1, 0.18);
  if (!background) return CLEAR;
  const scale = maskable ? 0.78 : 1;
  const x = (u - 0.5) / scale + 0.5;
  const y = (v - 0.5) / scale + 0.5;
  const body = inRoundRect(x, y, 0.2, 0.34, 0.8, 0.76, 0.07);
  const card = inRoundRect(x, y, 0.28, 0.22, 0.7, 0.4, 0.04) && !inRoundRect(x, y, 0.2, 0.31, 0.8, 0.34, 0);
  const pocket = inRoundRect(x, y, 0.56, 0.46, 0.8, 0.64, 0.05);
  const stud = (x - 0.64) ** 2 + (y - 0.55) ** 2 <= 0.028 ** 2;
  if (stud) return WHITE;
  if (pocket) return GREEN;
  if (body || card) return WHITE;
  return GREEN;
}

/** One icon as PNG bytes, anti-aliased by 4 x 4 samples a pixel. */
export function drawIcon(size: number, maskable: boolean): Buffer {
  const png = new PNG({ width: size, height: size });
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const paint = PAINTS[paintAt((px + (sx + 0.5) / n) / size, (py + (sy + 0.5) / n) / size, maskable)];
          // Premultiplied, so the edge against transparency does not darken.
          r += paint[0] * paint[3];
          g += paint[1] * paint[3];
          b += paint[2] * paint[3];
          a += paint[3];
        }
      }
      const i = (py * size + px) * 4;
      png.data[i] = a ? Math.round(r / a) : 0;
      png.data[i + 1] = a ? Math.round(g / a) : 0;
      png.data[i + 2] = a ? Math.round(b / a) : 0;
      png.data[i + 3] = Math.round(a / (n * n));
    }
  }
  return PNG.sync.write(png, { colorType: 6 });
}

/** The icons whose committed file is not the image drawIcon draws now. */
export function staleIcons(dir = ICONS_DIR): string[] {
  return DRAWN.filter(({ file, size, maskable }) => {
    const committed = path.join(dir, file);
    if (!fs.existsSync(committed)) return true;
    // Pixels, not bytes: another zlib may compress the same image differently.
    const a = PNG.sync.read(fs.readFileSync(committed));
    const b = PNG.sync.read(drawIcon(size, maskable));
    return a.width !== b.width || a.height !== b.height || !a.data.equals(b.data);
  }).map(({ file }) => file);
}

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const stale = staleIcons();
    if (stale.length) {
      console.error(`public/icons differs from scripts/draw-icons.ts: ${stale.join(', ')} (run it without --check)`);
      process.exit(1);
    }
    console.log('public/icons is what scripts/draw-icons.ts draws');
  } else {
    fs.mkdirSync(ICONS_DIR, { recursive: true });
    for (const icon of DRAWN) {
      const file = path.join(ICONS_DIR, icon.file);
      fs.writeFileSync(file, drawIcon(icon.size, icon.maskable));
      console.log(`wrote ${path.relative(process.cwd(), file)} (${icon.size}x${icon.size}${icon.maskable ? ', maskable' : ''})`);
    }
  }
}
