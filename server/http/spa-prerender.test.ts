import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScreenPrerender } from '../../shared/prerender';
import { buildTestApp, type TestApp } from '../test/support/helper';
import { cookieLanguage, prerenderCache, withPrerenderedScreen } from './spa-prerender';

const SLOT = '\uE000site-brand\uE000';
const INDEX = '<!doctype html><html lang="th"><head><script defer src="/assets/main.abc123.js"></script></head><body><div id="root"></div></body></html>';
const USER = '<!doctype html><html lang="th"><head><script defer src="/assets/main.abc123.js"></script><link rel="preload" as="script" href="/assets/locale-th.js"></head><body><div id="root"></div></body></html>';
const LOGIN = '<!doctype html><html lang="th"><head><script defer src="/assets/boot-loader.abc123.js"></script></head><body><div id="root"></div></body></html>';
const HOME = '<!doctype html><html lang="th"><head><script defer src="/assets/boot-loader.abc123.js"></script><meta name="preload-script" content="/assets/route-home.js"></head><body><div id="root"></div></body></html>';

/** Every language, demo mode and chat switch, as the build writes them; each names itself in its HTML. */
function prerender(screen = 'login', hydratePath?: string): ScreenPrerender {
  const variants: ScreenPrerender['variants'] = [];
  for (const [locale, lang] of [['th', 'th'], ['la', 'lo'], ['en', 'en']] as const) {
    for (const demo of [false, true]) {
      for (const chat of [false, true]) {
        variants.push({ locale, lang, demo, chat, html: `<a class="top-bar__brand">${SLOT}</a><p>${screen} ${locale} demo=${demo} chat=${chat}</p>` });
      }
    }
  }
  return { slot: SLOT, variants, ...(hydratePath ? { hydratePath } : {}) };
}

const info = { name: 'Demo Wallet', website: 'https://wallet.example.com', demo: true, minPlayerAge: 20, passwordMinLength: 6 };
const boot = { info, chat: { enableChatWidget: false }, active: { terminated: null } };
const shell = () => LOGIN;

describe('withPrerenderedScreen', () => {
  test('puts the variant for the demo flag, chat switch and language into the login page, hidden and inert', () => {
    const page = withPrerenderedScreen(INDEX, shell, prerender(), boot, 'la');
    expect(page).toContain('<html lang="lo">');
    expect(page).toContain('<script defer src="/assets/boot-loader.abc123.js">');
    expect(page).toContain('<div id="root" inert="" hidden=""><a class="top-bar__brand">Demo Wallet</a><p>login la demo=true chat=false</p></div>');
  });

  test('a screen for logged-in players is marked for the loader to show only with a stored session', () => {
    const page = withPrerenderedScreen(INDEX, () => HOME, prerender('home'), boot, 'th', { needsSession: true });
    expect(page).toContain('<div id="root" inert="" hidden="" data-needs-session=""><a class="top-bar__brand">Demo Wallet</a><p>home th demo=true chat=false</p></div>');
  });

  test('a screen the app hydrates names its path and the language of the variant sent; a stand-in does not', () => {
    const page = withPrerenderedScreen(INDEX, () => HOME, prerender('home', '/user/home'), boot, 'la', { needsSession: true });
    expect(page).toContain('<div id="root" inert="" hidden="" data-needs-session="" data-hydrate-path="/user/home" data-hydrate-locale="la"><a');
    expect(withPrerenderedScreen(INDEX, shell, prerender(), boot, 'la')).not.toContain('data-hydrate');
  });

  test('the market language (the first variant) when the request names none or an unknown one', () => {
    for (const language of [undefined, 'xx']) {
      expect(withPrerenderedScreen(INDEX, shell, prerender(), { ...boot, chat: { enableChatWidget: true } }, language)).toContain('<p>login th demo=true chat=true</p>');
    }
  });

  test("the operator's name and logo are escaped, and a $ in them is no replacement pattern", () => {
    const page = withPrerenderedScreen(INDEX, shell, prerender(), { ...boot, info: { ...info, name: `<b>$&$' Co</b>`, logo: '/media/a"b.png' } }, 'en');
    expect(page).toContain(`<img class="top-bar__logo" src="/media/a&quot;b.png" alt="">&lt;b&gt;$&amp;$&#39; Co&lt;/b&gt;</a>`);
  });

  test('the page unchanged when the screen would not be the one the app shows', () => {
    const cases = [
      { ...boot, active: { terminated: 'gone' as const } },
      { ...boot, active: undefined },
      { ...boot, info: undefined },
      { ...boot, info: { ...info, name: '' } },
      { ...boot, chat: undefined },
    ];
    for (const data of cases) expect(withPrerenderedScreen(INDEX, shell, prerender(), data, 'th')).toBe(INDEX);
    expect(withPrerenderedScreen(INDEX, shell, undefined, boot, 'th')).toBe(INDEX);
    expect(withPrerenderedScreen(INDEX, () => fs.readFileSync('/nonexistent/login.html', 'utf8'), prerender(), boot, 'th')).toBe(INDEX);
  });
});

test('cookieLanguage reads the lang cookie among others', () => {
  expect(cookieLanguage('a=1; lang=en; b=2')).toBe('en');
  expect(cookieLanguage('lang=la')).toBe('la');
  expect(cookieLanguage('xlang=en')).toBeUndefined();
  expect(cookieLanguage(undefined)).toBeUndefined();
});

test('prerenderCache: none without a file or with a broken one, and the new one after a rebuild', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-prerender-'));
  const file = path.join(dir, 'login.json');
  const read = prerenderCache(file);
  expect(read()).toBeUndefined();
  fs.writeFileSync(file, '{not json');
  expect(read()).toBeUndefined();
  fs.writeFileSync(file, JSON.stringify(prerender()));
  fs.utimesSync(file, new Date(), new Date(Date.now() + 5000));
  expect(read()?.variants).toHaveLength(12);
});

describe('GET /login with a built prerender', () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-dist-'));
    fs.mkdirSync(path.join(dist, 'prerender'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dist, 'prerender', 'login.html'), LOGIN);
    fs.writeFileSync(path.join(dist, 'prerender', 'login.json'), JSON.stringify(prerender()));
    fs.writeFileSync(path.join(dist, 'prerender', 'user.html'), USER);
    t = await buildTestApp({ DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
  });
  const html = { accept: 'text/html' };

  test('/login comes drawn, in the language of the cookie, with the boot data', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/login?next=%2Fuser', headers: { ...html, cookie: 'lang=en' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers.vary).toContain('Cookie');
    expect(res.body).toMatch(/<div id="root" inert="" hidden=""><a class="top-bar__brand">[^<]+<\/a><p>login en demo=(true|false) chat=(true|false)<\/p><\/div>/);
    expect(res.body).toContain('boot-loader');
    expect(res.body).toContain('<meta name="boot-data"');
  });

  test('every other page is index.html with an empty root, and the prerender files are not served', async () => {
    for (const url of ['/', '/register', '/users', '/login/x']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.body.startsWith(INDEX.slice(0, INDEX.indexOf('</head>')))).toBe(true);
      expect(res.body).toContain('<div id="root"></div>');
      expect(res.body).not.toContain('boot-loader');
    }
    for (const url of ['/prerender/login.json', '/prerender/login.html', '/prerender/user.html']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
    }
  });

  test("the player's area gets its own page (no login preloads), with the boot data; the home too while no home screen is built", async () => {
    for (const url of ['/user', '/user/home', '/user/statement?page=2']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain('<link rel="preload" as="script" href="/assets/locale-th.js">');
      expect(res.body).toContain('<meta name="boot-data"');
      expect(res.body).toContain('<div id="root"></div>');
    }
  });
});

describe("GET /user/home with the player's home built", () => {
  let t: TestApp;
  beforeAll(async () => {
    const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-dist-'));
    fs.mkdirSync(path.join(dist, 'prerender'));
    fs.writeFileSync(path.join(dist, 'index.html'), INDEX);
    fs.writeFileSync(path.join(dist, 'prerender', 'user.html'), USER);
    fs.writeFileSync(path.join(dist, 'prerender', 'home.html'), HOME);
    fs.writeFileSync(path.join(dist, 'prerender', 'home.json'), JSON.stringify(prerender('home', '/user/home')));
    t = await buildTestApp({ DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
  });
  const html = { accept: 'text/html' };

  test('comes drawn in the language of the cookie, for the loader to show to a stored session only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/user/home', headers: { ...html, cookie: 'lang=la' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers.vary).toContain('Cookie');
    expect(res.body).toMatch(/<div id="root" inert="" hidden="" data-needs-session="" data-hydrate-path="\/user\/home" data-hydrate-locale="la"><a class="top-bar__brand">[^<]+<\/a><p>home la demo=(true|false) chat=(true|false)<\/p><\/div>/);
    expect(res.body).toContain('<meta name="preload-script" content="/assets/route-home.js">');
    expect(res.body).toContain('<meta name="boot-data"');
  });

  test("the rest of the player's area keeps its page with an empty root; the files are not served", async () => {
    for (const url of ['/user', '/user/statement', '/user/home/x']) {
      const res = await t.app.inject({ method: 'GET', url, headers: html });
      expect(res.body).toContain('<link rel="preload" as="script" href="/assets/locale-th.js">');
      expect(res.body).toContain('<div id="root"></div>');
    }
    for (const url of ['/prerender/home.json', '/prerender/home.html']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);
    }
  });
});
