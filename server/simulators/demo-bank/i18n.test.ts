import { buildTestApp, type TestApp } from '../../test/support/helper';
import { BANK_TEXTS } from './texts';

/** Issue 40 item 13: the demo bank page in th, la and en, with the Thai and Lao faces served beside it. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const page = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

test('the page in the asked language (?lang=, else the SPA lang cookie, else English), every language with the same texts', async () => {
  const th = await page('/demo/bank?lang=th');
  expect(th.statusCode).toBe(200);
  expect(th.body).toContain('<html lang="th">');
  expect(th.body).toContain('<h1>ธนาคารทดลอง');
  expect(th.body).not.toContain('QR codes waiting for payment');
  const la = await page('/demo/bank', 'x=1; lang=la');
  expect(la.body).toContain('<html lang="la">');
  expect(la.body).toContain('ຄິວອາໂຄດທີ່ລໍຖ້າຊຳລະ');
  expect((await page('/demo/bank?lang=en', 'lang=la')).body).toContain('<h1>Demo bank');
  expect((await page('/demo/bank', 'lang=fr')).body).toContain('<html lang="en">');
  for (const lang of ['th', 'la'] as const) expect(Object.keys(BANK_TEXTS[lang]).sort()).toEqual(Object.keys(BANK_TEXTS.en).sort());
  // Each page links the other two languages.
  expect(th.body).toContain('href="/demo/bank?lang=la"');
  expect(th.body).toContain('href="/demo/bank?lang=en"');
});

test('the stylesheet names the Thai and Lao faces and the page serves them; no other file is reachable', async () => {
  const css = (await page('/demo/bank/bank.css')).body;
  expect(css).toMatch(/font-family:"Noto Sans Lao"[^}]*src:url\(\/demo\/bank\/fonts\/noto-sans-lao-400\.woff2\)/);
  expect(css).toMatch(/font-family:"Noto Sans Thai"[^}]*src:url\(\/demo\/bank\/fonts\/noto-sans-thai-700\.woff2\)/);
  for (const name of ['noto-sans-thai-400', 'noto-sans-thai-700', 'noto-sans-lao-400', 'noto-sans-lao-700']) {
    const font = await page(`/demo/bank/fonts/${name}.woff2`);
    expect([name, font.statusCode, font.headers['content-type']]).toEqual([name, 200, 'font/woff2']);
    expect(font.rawPayload.subarray(0, 4).toString('latin1')).toBe('wOF2');
  }
  for (const bad of ['..%2F..%2Fpackage.json', 'noto-sans-lao-900.woff2', 'constructor']) expect((await page(`/demo/bank/fonts/${bad}`)).statusCode).toBe(404);
});
