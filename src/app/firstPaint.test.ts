import { waitFor } from '@testing-library/react';

import { boot, fontsFor, hasStoredSession, NEEDS_SESSION, startEntryScripts } from './firstPaint';

function page(root: string): Document {
  document.head.innerHTML =
    '<meta name="entry-script" content="/assets/runtime.js"><meta name="entry-script" content="/assets/main.js">' +
    '<meta name="preload-script" content="/assets/route-login.js">';
  document.body.innerHTML = root;
  return document;
}

const scripts = () => [...document.head.querySelectorAll('script')].map((s) => [s.getAttribute('src'), s.async]);
const preloads = () => [...document.head.querySelectorAll('link[rel="preload"]')].map((l) => [l.getAttribute('href'), l.getAttribute('as')]);

afterEach(() => {
  delete (document as { fonts?: unknown }).fonts;
});

test('startEntryScripts preloads the first screen scripts and adds the entry scripts in order, not async', () => {
  startEntryScripts(page('<div id="root"></div>'));
  expect(preloads()).toEqual([['/assets/route-login.js', 'script']]);
  expect(scripts()).toEqual([
    ['/assets/runtime.js', false],
    ['/assets/main.js', false],
  ]);
});

test('an empty page starts the app at once', async () => {
  await boot(page('<div id="root"></div>'));
  expect(scripts()).toHaveLength(2);
});

test('a prerendered screen is shown once its fonts are loaded, and only then does the app start', async () => {
  const doc = page('<div id="root" hidden inert><h1 style="font-weight: 700">เข้าสู่ระบบ</h1><p>Demo <b>x</b></p></div>');
  let fontsLoaded!: () => void;
  const asked: [string, string][] = [];
  const load = jest.fn((font: string, text: string) => {
    asked.push([font, text]);
    return new Promise<FontFace[]>((resolve) => (fontsLoaded = () => resolve([])));
  });
  Object.defineProperty(doc, 'fonts', { value: { load }, configurable: true });
  const booted = boot(doc);
  const root = doc.getElementById('root')!;
  // The font check waits for a task of its own (not the one that ends the page's parsing).
  expect(asked).toHaveLength(0);
  await waitFor(() => expect(asked.length).toBeGreaterThan(0));
  expect(root.hidden).toBe(true);
  expect(scripts()).toHaveLength(0);
  // Each element's own text in its own weight: the bold title, and the paragraph with its bold word apart.
  expect(asked.map(([font, text]) => [font.split(' 1em')[0], text])).toEqual(
    expect.arrayContaining([
      [expect.stringContaining('700'), expect.stringContaining('เข้าสู่ระบบ')],
      [expect.not.stringContaining('700'), 'Demo '],
    ]),
  );
  fontsLoaded();
  await booted;
  expect(root.hidden).toBe(false);
  expect(scripts()).toHaveLength(2);
});

test('fontsFor gives up waiting after FONT_WAIT_MS', async () => {
  jest.useFakeTimers();
  try {
    const doc = page('<div id="root" hidden><p>x</p></div>');
    Object.defineProperty(doc, 'fonts', { value: { load: () => new Promise(() => undefined) }, configurable: true });
    let done = false;
    void fontsFor(doc, doc.getElementById('root')!).then(() => (done = true));
    await jest.advanceTimersByTimeAsync(1499);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  } finally {
    jest.useRealTimers();
  }
});

describe("a screen only a player gets to (the home's)", () => {
  const home = `<div id="root" hidden inert ${NEEDS_SESSION}=""><p>ยอดเงินรวม</p></div>`;
  const noFonts = (doc: Document) => Object.defineProperty(doc, 'fonts', { value: { load: () => Promise.resolve([]) }, configurable: true });
  afterEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  test('is dropped when no session is stored: the app starts at once and takes the visitor to the login', async () => {
    const doc = page(home);
    noFonts(doc);
    await boot(doc);
    const root = doc.getElementById('root')!;
    expect(root.childNodes).toHaveLength(0);
    expect(root.hidden).toBe(true);
    expect(scripts()).toHaveLength(2);
  });

  test('is shown when a session is stored, remembered or not', async () => {
    for (const storage of [localStorage, sessionStorage]) {
      storage.setItem('persist:token', JSON.stringify({ token: JSON.stringify('eyJ.a.b'), remember: 'true', _persist: '{"version":-1,"rehydrated":true}' }));
      const doc = page(home);
      noFonts(doc);
      await boot(doc);
      expect(doc.getElementById('root')!.textContent).toBe('ยอดเงินรวม');
      expect(doc.getElementById('root')!.hidden).toBe(false);
      storage.clear();
    }
  });

  test('a record without a token, or one that does not parse, is no session', () => {
    expect(hasStoredSession(window)).toBe(false);
    localStorage.setItem('persist:token', JSON.stringify({ token: 'null', remember: 'false' }));
    expect(hasStoredSession(window)).toBe(false);
    localStorage.setItem('persist:token', JSON.stringify({ token: '""' }));
    expect(hasStoredSession(window)).toBe(false);
    localStorage.setItem('persist:token', '{not json');
    expect(hasStoredSession(window)).toBe(false);
    sessionStorage.setItem('persist:token', JSON.stringify({ token: JSON.stringify('eyJ.a.b') }));
    expect(hasStoredSession(window)).toBe(true);
    expect(hasStoredSession(null)).toBe(false);
  });
});
