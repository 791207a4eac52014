import fs from 'node:fs';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expectAccessible, launchBrowser, logIn, phoneContext, startServer, type RunningServer } from './harness';

/**
 * Issue 12: a QR paid from the same phone. At 360 px in th and la: the QR on screen is a raster image (a
 * long-press saves it), "Save QR" downloads a PNG whose code decodes to the PromptPay payload the server
 * made for that QR, and "Share" hands the same PNG to Web Share (stubbed here: headless Chromium on Linux
 * has no share sheet, and a real one would wait for a person).
 */
let server: RunningServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
  context = await phoneContext(browser, { acceptDownloads: true });
  // Web Share level 2 as a phone has it; what is shared is kept for the test to read.
  await context.addInitScript(() => {
    const w = window as unknown as { sharedFiles: { name: string; type: string; bytes: number[] }[] };
    w.sharedFiles = [];
    Object.defineProperty(navigator, 'canShare', { configurable: true, value: (data: { files?: File[] }) => !!data.files?.every((f) => f.type === 'image/png') });
    Object.defineProperty(navigator, 'share', {
      configurable: true,
      value: async (data: { files: File[] }) => {
        for (const file of data.files) w.sharedFiles.push({ name: file.name, type: file.type, bytes: Array.from(new Uint8Array(await file.arrayBuffer())) });
      },
    });
  });
  page = await context.newPage();
});
afterAll(async () => {
  await context?.close();
  await browser?.close();
  await server?.stop();
});

const decodePng = (bytes: Buffer) => {
  const png = PNG.sync.read(bytes);
  return { width: png.width, height: png.height, text: jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null };
};

async function chooseLanguage(lang: 'th' | 'la') {
  await page.getByTestId('language-switcher').selectOption(lang);
  await page.waitForFunction((l) => document.documentElement.lang === (l === 'la' ? 'lo' : l), lang);
}

async function openQrPanel() {
  await page.getByTestId('widget-deposit').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('tab-qr').click();
  return { dialog, panel: dialog.getByTestId('qr-KBANK') };
}

/** The on-screen QR: a PNG data URL (not an SVG) whose code is the payload. */
async function expectRasterQr(image: ReturnType<Page['getByTestId']>, payload: string) {
  const src = (await image.getAttribute('src')) ?? '';
  expect(src).toMatch(/^(data:image\/png;base64,|blob:)/);
  if (src.startsWith('data:')) expect(decodePng(Buffer.from(src.slice(src.indexOf(',') + 1), 'base64')).text).toBe(payload);
}

test('the QR is saved and shared as a PNG that decodes to the PromptPay payload, in Thai and Lao', async () => {
  await logIn(page, server.url);
  await chooseLanguage('th');
  let { dialog, panel } = await openQrPanel();
  await panel.getByTestId('qr-pick-100').click();
  const created = page.waitForResponse((res) => res.request().method() === 'POST' && res.url().endsWith('/api/qrcode/KBANK'));
  await panel.getByTestId('qr-create').click();
  const record = (await (await created).json()) as { payload: string; amount: number };
  expect(record.payload).toMatch(/^000201.*5303764.*5406100\.00/);

  const image = panel.getByRole('img', { name: /คิวอาร์โค้ด .* ยอด 100\.00 บาท/ });
  await image.waitFor();
  await expectRasterQr(image, record.payload);

  // Save QR: a PNG download named for bank and amount; the code decodes to the payload, the lines sit under it.
  const save = panel.getByRole('button', { name: 'บันทึกคิวอาร์โค้ด' });
  expect((await save.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  const download = page.waitForEvent('download');
  await save.click();
  const file = await download;
  expect(file.suggestedFilename()).toBe('qr-KBANK-100.00.png');
  const saved = decodePng(fs.readFileSync((await file.path())!));
  expect(saved.text).toBe(record.payload);
  expect(saved.height).toBeGreaterThan(saved.width + 100);
  expect(await panel.getByRole('button', { name: 'แชร์' }).count()).toBe(1);
  expect(await panel.getByRole('alert').count()).toBe(0);
  await expectAccessible(page);

  // Lao: the same QR, its texts in Lao; Share hands over the PNG of it.
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  await chooseLanguage('la');
  ({ dialog, panel } = await openQrPanel());
  const laoImage = panel.getByRole('img', { name: /ຄິວອາໂຄດ .* ຈຳນວນ 100[.,]00 ບາດ/ });
  await laoImage.waitFor();
  await expectRasterQr(laoImage, record.payload);
  await panel.getByRole('button', { name: 'ບັນທຶກຄິວອາໂຄດ' }).waitFor();
  const share = panel.getByRole('button', { name: 'ແບ່ງປັນ' });
  expect((await share.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await share.click();
  const shared = await page.waitForFunction(() => (window as unknown as { sharedFiles: unknown[] }).sharedFiles.length > 0 && (window as unknown as { sharedFiles: unknown[] }).sharedFiles);
  const [sharedFile] = (await shared.jsonValue()) as { name: string; type: string; bytes: number[] }[];
  expect(sharedFile).toMatchObject({ name: 'qr-KBANK-100.00.png', type: 'image/png' });
  expect(decodePng(Buffer.from(sharedFile!.bytes)).text).toBe(record.payload);
  expect(await panel.getByRole('alert').count()).toBe(0);
  await expectAccessible(page);
});
