/**
 * Records the demo how-to videos (spec §2 how-to screen) from this app's own screens:
 *   npm run record:howto
 * builds the SPA when it is stale, starts the demo server as the end-to-end harness does, drives Debian's Chromium
 * (playwright-core) at a 360 x 640 phone viewport through each journey taking one screenshot per step, and joins
 * the screenshots with Debian's ffmpeg into public/media/howto/<key>.webm (VP9, one frame every 1.5 s), a poster
 * <key>.jpg and captions <key>.{th,la,en}.vtt whose cues are the locales' howto.steps.<key>.<n> texts.
 * The screens are recorded in Thai (the app's default language); the captions carry each language.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';

import { ensureSpaBuilt } from '../server/spa-build';
import { DEMO_LOGIN, launchBrowser, ROOT, startServer } from '../test/e2e/harness';

const KEYS = ['wallet', 'play', 'balance', 'bonus', 'cancelBonus'] as const;
type Key = (typeof KEYS)[number];
const LANGS = ['th', 'la', 'en'] as const;

/** One frame every 1.5 s; a step stays on screen for FRAMES_PER_STEP frames (3 s, time to read its caption). */
const FRAME_SECONDS = 1.5;
const FRAMES_PER_STEP = 2;
const STEP_SECONDS = FRAME_SECONDS * FRAMES_PER_STEP;
const MAX_BYTES = 1024 * 1024;
const VIEWPORT = { width: 360, height: 640 };
const FFMPEG = process.env.FFMPEG_PATH || '/usr/bin/ffmpeg';
const OUT = path.join(ROOT, 'public', 'media', 'howto');

interface Journey {
  /** The screenshots, one per step, in order. */
  shots: string[];
  /** The step whose screenshot is the poster (0-based). */
  poster: number;
}

type Texts = Record<string, unknown>;
const locales: Record<(typeof LANGS)[number], Texts> = Object.fromEntries(
  LANGS.map((lang) => [lang, JSON.parse(fs.readFileSync(path.join(ROOT, 'locales', `${lang}.json`), 'utf8')) as Texts]),
) as Record<(typeof LANGS)[number], Texts>;

/** howto.steps.<key>.<n> in one language; a missing text stops the recording (the locales test keeps all three in step). */
function stepText(lang: (typeof LANGS)[number], key: Key, step: number): string {
  const steps = ((locales[lang].howto as Texts)?.steps as Texts)?.[key] as Record<string, string> | undefined;
  const text = steps?.[String(step)];
  if (!text) throw new Error(`locales/${lang}.json has no howto.steps.${key}.${step}`);
  return text;
}

const stepCount = (key: Key) => Object.keys(((locales.en.howto as Texts).steps as Texts)[key] as object).length;

/** 3.5 -> 00:00:03.500 */
function vttTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** A WebVTT file with one cue per step. */
function captions(texts: string[]): string {
  const cues = texts.map((text, i) => `${i + 1}\n${vttTime(i * STEP_SECONDS)} --> ${vttTime((i + 1) * STEP_SECONDS)}\n${text}\n`);
  return `WEBVTT\n\n${cues.join('\n')}`;
}

/** The ring drawn around what the player taps next in a step's screenshot. */
const TAP_STYLE = '.howto-tap { outline: 4px solid #e11d48 !important; outline-offset: 3px !important; border-radius: 0.5rem; }';

class Recorder {
  private readonly shots: string[] = [];
  constructor(
    private readonly page: Page,
    private readonly dir: string,
    private readonly key: Key,
  ) {}

  /**
   * The step's screenshot once the page has settled (no requests, fonts and images ready): `show` is scrolled to
   * the middle of the screen first, and `tap` (what the caption asks the player to tap) gets a ring.
   */
  async step({ show, tap }: { show?: Locator; tap?: Locator } = {}): Promise<void> {
    const target = show ?? tap;
    if (target) await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await this.page.waitForLoadState('networkidle');
    await this.page.evaluate(async (style) => {
      if (!document.getElementById('howto-tap-style')) {
        const element = Object.assign(document.createElement('style'), { id: 'howto-tap-style', textContent: style });
        document.head.append(element);
      }
      await document.fonts.ready;
      await Promise.all(Array.from(document.images).map((img) => (img.complete ? null : img.decode().catch(() => null))));
    }, TAP_STYLE);
    if (tap) await tap.evaluate((el) => el.classList.add('howto-tap'));
    const file = path.join(this.dir, `${this.key}-${String(this.shots.length + 1).padStart(2, '0')}.png`);
    await this.page.screenshot({ path: file, animations: 'disabled', caret: 'hide' });
    if (tap) await tap.evaluate((el) => el.classList.remove('howto-tap'));
    this.shots.push(file);
  }

  done(poster: number): Journey {
    if (this.shots.length !== stepCount(this.key)) throw new Error(`${this.key}: ${this.shots.length} screenshots for ${stepCount(this.key)} captions`);
    return { shots: this.shots, poster };
  }
}

const toTop = (page: Page) => page.evaluate(() => window.scrollTo(0, 0));

/** wallet: logging in, home's total, the wallet actions, the game cards. */
async function wallet(page: Page, rec: Recorder, url: string): Promise<Journey> {
  await page.goto(`${url}/login`);
  await page.getByTestId('language-switcher').selectOption('th');
  await page.waitForFunction(() => document.documentElement.lang === 'th');
  await page.getByTestId('login-phone').fill(DEMO_LOGIN.phone);
  await page.getByTestId('login-password').fill(DEMO_LOGIN.password);
  await rec.step({ tap: page.getByTestId('login-submit') });
  await page.getByTestId('login-submit').click();
  await page.waitForURL(/\/user\/home$/);
  const agreement = page.locator('[role="dialog"]').filter({ has: page.getByTestId('agreement-accept') });
  await agreement.getByTestId('agreement-accept').click();
  await agreement.waitFor({ state: 'detached' });
  await page.getByTestId('total-balance').filter({ hasText: /\d/ }).waitFor();
  await toTop(page);
  await rec.step();
  await rec.step({ show: page.getByTestId('widget-withdraw') });
  await rec.step({ show: page.getByTestId('carousel-slot') });
  return rec.done(1);
}

/** balance: the last reading, refreshing, the fresh reading. */
async function balance(page: Page, rec: Recorder): Promise<Journey> {
  await toTop(page);
  await rec.step();
  const refresh = page.getByTestId('refresh-balance');
  await rec.step({ tap: refresh });
  const answered = page.waitForResponse((response) => new URL(response.url()).pathname.startsWith('/api/'));
  await refresh.click();
  await answered;
  await page.waitForFunction(() => document.querySelector('[data-testid="refresh-balance"]')?.getAttribute('aria-busy') !== 'true');
  await rec.step();
  return rec.done(2);
}

/** play: opening a game account, a transfer to it, the game account to play from. */
async function play(page: Page, rec: Recorder): Promise<Journey> {
  const card = page.getByTestId('game-card-pg');
  await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  // Open the PG Soft account if it is not open yet (its card then shows its amount).
  if ((await card.getByTestId('game-amount-pg').count()) === 0) {
    await card.locator('.game-card__action').click();
    await card.getByTestId('game-amount-pg').waitFor();
  }
  await rec.step({ tap: page.getByTestId('open-transfer') });
  await page.getByTestId('open-transfer').click();
  const dialog = page.locator('[role="dialog"]').filter({ has: page.getByTestId('transfer-submit') });
  await dialog.getByTestId('transfer-from').selectOption('WALLET');
  await dialog.getByTestId('transfer-to').selectOption('pg');
  await dialog.getByTestId('transfer-amount').fill('100');
  await rec.step({ tap: dialog.getByTestId('transfer-submit') });
  await dialog.getByTestId('transfer-submit').click();
  // The answer takes the form's place in the dialog.
  const alert = page.getByTestId('move-alert');
  await alert.waitFor();
  await rec.step();
  await alert.getByRole('button').first().click();
  await alert.waitFor({ state: 'detached' });
  await card.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await card.locator('.game-card__action').click();
  const account = page.locator('[role="dialog"]').filter({ has: page.getByTestId('game-username') });
  await account.getByTestId('game-username').waitFor();
  await rec.step();
  await page.keyboard.press('Escape');
  await account.waitFor({ state: 'detached' });
  return rec.done(3);
}

/** bonus: the widget on home, the bonus page, a bonus's conditions, receiving it, the active bonus. */
async function bonus(page: Page, rec: Recorder): Promise<Journey> {
  await rec.step({ tap: page.getByTestId('widget-bonus') });
  await page.getByTestId('widget-bonus').click();
  await page.waitForURL(/\/user\/bonus$/);
  await page.getByTestId('bonus-grid').waitFor();
  await rec.step({ tap: page.getByTestId('bonus-card-FIRST10') });
  await page.getByTestId('bonus-card-FIRST10').click();
  const modal = page.getByTestId('bonus-modal');
  await modal.getByTestId('bonus-receive').waitFor();
  await rec.step({ tap: modal.getByTestId('bonus-receive') });
  await modal.getByTestId('bonus-receive').click();
  await modal.getByTestId('bonus-saved').waitFor();
  await rec.step();
  await modal.locator('.bonus-modal__action').click(); // OK
  await modal.waitFor({ state: 'detached' });
  await page.getByTestId('bonus-active').waitFor();
  await rec.step({ show: page.getByTestId('bonus-active') });
  return rec.done(2);
}

/** cancelBonus: the active bonus, the confirmation, the page without it. */
async function cancelBonus(page: Page, rec: Recorder): Promise<Journey> {
  await rec.step({ tap: page.getByTestId('bonus-cancel') });
  await page.getByTestId('bonus-cancel').click();
  await page.getByTestId('bonus-cancel-confirm').waitFor();
  await rec.step({ tap: page.getByTestId('bonus-cancel-confirm') });
  await page.getByTestId('bonus-cancel-confirm').click();
  await page.getByTestId('promotion-code').waitFor();
  await page.getByTestId('bonus-active').waitFor({ state: 'detached' });
  await toTop(page);
  await rec.step();
  return rec.done(0);
}

/** Joins the screenshots into <key>.webm (VP9), writes <key>.jpg and the captions; returns the video's size. */
function encode(key: Key, journey: Journey, work: string): number {
  const frames = path.join(work, `${key}-frames`);
  fs.mkdirSync(frames, { recursive: true });
  let n = 0;
  for (const shot of journey.shots) {
    for (let i = 0; i < FRAMES_PER_STEP; i++) fs.copyFileSync(shot, path.join(frames, `f${String(++n).padStart(4, '0')}.png`));
  }
  const video = path.join(OUT, `${key}.webm`);
  const fps = `${2}/${2 * FRAME_SECONDS}`; // 2/3: one frame every 1.5 s
  // prettier-ignore
  execFileSync(FFMPEG, [
    '-y', '-loglevel', 'error',
    '-framerate', fps, '-i', path.join(frames, 'f%04d.png'),
    '-c:v', 'libvpx-vp9', '-pix_fmt', 'yuv420p', '-b:v', '0', '-crf', '36', '-deadline', 'good', '-cpu-used', '2', '-row-mt', '1',
    '-g', String(FRAMES_PER_STEP), '-r', fps, '-an', video,
  ]);
  execFileSync(FFMPEG, ['-y', '-loglevel', 'error', '-i', journey.shots[journey.poster], '-q:v', '4', path.join(OUT, `${key}.jpg`)]);
  for (const lang of LANGS) {
    const texts = journey.shots.map((_, i) => stepText(lang, key, i + 1));
    fs.writeFileSync(path.join(OUT, `${key}.${lang}.vtt`), captions(texts));
  }
  const size = fs.statSync(video).size;
  if (size >= MAX_BYTES) throw new Error(`${video} is ${size} bytes, over 1 MB`);
  return size;
}

async function main(): Promise<void> {
  if (!fs.existsSync(FFMPEG)) throw new Error(`ffmpeg not found at ${FFMPEG}: apt-get install -y ffmpeg (or set FFMPEG_PATH)`);
  await ensureSpaBuilt(ROOT, path.join(ROOT, 'dist'), (line) => console.log(line));
  fs.mkdirSync(OUT, { recursive: true });
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'howto-'));
  const server = await startServer();
  const browser = await launchBrowser();
  try {
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 1, isMobile: true, hasTouch: true, locale: 'th-TH' });
    const page = await context.newPage();
    const recorder = (key: Key) => new Recorder(page, work, key);
    // One session through the journeys, in an order where each leaves what the next needs (an active bonus to cancel).
    const journeys: [Key, () => Promise<Journey>][] = [
      ['wallet', () => wallet(page, recorder('wallet'), server.url)],
      ['balance', () => balance(page, recorder('balance'))],
      ['play', () => play(page, recorder('play'))],
      ['bonus', () => bonus(page, recorder('bonus'))],
      ['cancelBonus', () => cancelBonus(page, recorder('cancelBonus'))],
    ];
    for (const [key, run] of journeys) {
      const journey = await run().catch(async (error: unknown) => {
        const file = path.join(os.tmpdir(), `howto-${key}-failed.png`);
        await page.screenshot({ path: file }).catch(() => undefined);
        throw new Error(`${key}: ${error instanceof Error ? error.message : String(error)}\n(the screen at that moment: ${file})`);
      });
      const size = encode(key, journey, work);
      console.log(`${key}: ${journey.shots.length} steps, ${(journey.shots.length * STEP_SECONDS).toFixed(1)} s, ${(size / 1024).toFixed(0)} KB`);
    }
    await context.close();
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(work, { recursive: true, force: true });
    fs.rmSync(server.dataDir, { recursive: true, force: true });
  }
  console.log(`written to ${path.relative(ROOT, OUT)}/ (${KEYS.length} videos, posters and captions in ${LANGS.join(', ')})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack ?? error.message : error);
  process.exit(1);
});
