/**
 * The demo games' logos as PNG (public/games/<code>-logo.png), drawn from their SVG sources beside them:
 *   node --import tsx scripts/rasterize-game-logos.ts
 * An SVG shown as an image is painted on the page's main thread at every paint (its own little document), and text
 * in it is set in whatever font the device has (an image cannot use the page's web fonts): the seven logos of the
 * home's first screen were ~9 ms of one paint in Lighthouse's trace of /user/home (4x on its phone). A PNG is
 * decoded once, off the main thread, and looks the same everywhere. Drawn at 3x the size the home shows them
 * (48 x 24 CSS pixels), on a transparent background, by Debian's Chromium (playwright-core), so the text is set in
 * the fonts the SVG names. The backgrounds stay SVG: no text, and a PNG of them would be many times the bytes.
 */
import fs from 'node:fs';
import path from 'node:path';

import { launchBrowser, ROOT } from '../test/e2e/harness';

const DIR = path.join(ROOT, 'public', 'games');
/** The logo's box on the home (src/features/wallet/wallet.css, .game-card__logo) and the pixels per CSS pixel drawn. */
const WIDTH = 48;
const HEIGHT = 24;
const SCALE = 3;

async function main(): Promise<void> {
  const sources = fs.readdirSync(DIR).filter((f) => f.endsWith('-logo.svg'));
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: SCALE });
    for (const file of sources) {
      const svg = fs.readFileSync(path.join(DIR, file), 'utf8');
      await page.setContent(
        `<style>html,body{margin:0;background:transparent}img{display:block;width:${WIDTH}px;height:${HEIGHT}px;object-fit:contain}</style>` +
          `<img src="data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}">`,
      );
      await page.evaluate(async () => {
        await document.fonts.ready;
        await document.images[0].decode();
      });
      const out = path.join(DIR, file.replace(/\.svg$/, '.png'));
      fs.writeFileSync(out, await page.screenshot({ omitBackground: true, type: 'png' }));
      console.log(path.relative(ROOT, out), fs.statSync(out).size, 'bytes');
    }
  } finally {
    await browser.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
