import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { launchBrowser, startServer, ROOT } from '../e2e/harness';

export const LOGIN_JS_BUDGET_GZIP = 150 * 1024;

/**
 * Libraries that must not be in /login's JavaScript (ARCHITECTURE.md: heavy or rare code loads lazily), each
 * known by strings its minified code keeps. socket.io-client belongs to the chat widget's own chunk only.
 */
export const NOT_ON_LOGIN: { name: string; markers: string[] }[] = [
  { name: 'socket.io-client', markers: ['io client disconnect', 'io server disconnect'] },
];

/** The libraries of NOT_ON_LOGIN whose markers occur in `code`. */
export function lazyLibrariesIn(code: string): string[] {
  return NOT_ON_LOGIN.filter(({ markers }) => markers.some((marker) => code.includes(marker))).map(({ name }) => name);
}

/**
 * The JS a first-time visitor downloads to see /login: every script the real page requests in
 * headless Chromium, sized as gzip -9 and brotli 11 of the built file.
 */
export async function measureLoginBundle(): Promise<{ ok: boolean; lines: string[] }> {
  const server = await startServer();
  const browser = await launchBrowser();
  const scripts = new Set<string>();
  try {
    const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
    const page = await context.newPage();
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
    });
    await page.goto(`${server.url}/login`, { waitUntil: 'networkidle' });
    await page.getByTestId('page-title').waitFor();
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
  }
  let gz = 0;
  let br = 0;
  let raw = 0;
  const lines: string[] = [];
  const misplaced: string[] = [];
  for (const p of [...scripts].sort()) {
    const file = path.join(process.env.DIST_DIR ?? path.join(ROOT, 'dist'), p);
    const buf = fs.readFileSync(file);
    for (const name of lazyLibrariesIn(buf.toString('utf8'))) misplaced.push(`  ${name} is in ${p}: it must load lazily, not with /login`);
    const g = zlib.gzipSync(buf, { level: 9 }).length;
    const b = zlib.brotliCompressSync(buf, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
    raw += buf.length;
    gz += g;
    br += b;
    lines.push(`  ${p.padEnd(48)} ${kb(buf.length).padStart(9)} ${kb(g).padStart(9)} ${kb(b).padStart(9)}`);
  }
  const ok = gz <= LOGIN_JS_BUDGET_GZIP && misplaced.length === 0;
  return {
    ok,
    lines: [
      `JS downloaded for /login (${scripts.size} files):`,
      `  ${'file'.padEnd(48)} ${'raw'.padStart(9)} ${'gzip'.padStart(9)} ${'brotli'.padStart(9)}`,
      ...lines,
      `  ${'total'.padEnd(48)} ${kb(raw).padStart(9)} ${kb(gz).padStart(9)} ${kb(br).padStart(9)}`,
      `  budget: ${kb(LOGIN_JS_BUDGET_GZIP)} gzip -> ${gz <= LOGIN_JS_BUDGET_GZIP ? 'within budget' : 'OVER BUDGET'}`,
      ...(misplaced.length > 0 ? misplaced : [`  none of ${NOT_ON_LOGIN.map((l) => l.name).join(', ')} (lazy only)`]),
    ],
  };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
