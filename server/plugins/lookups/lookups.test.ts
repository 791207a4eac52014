import { buildTestApp, type TestApp } from '../../test/support/helper';
import { writeSetting, writeSettingDoc } from '../../settings';
import { SETTINGS } from '../../db/seed';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = async (name: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/lookup/${name}` });
  return { status: res.statusCode, body: res.json() as unknown, res };
};

test('banks lists the banks a player can register with, Thai and English names, market and English rule, no payment types', async () => {
  const { status, body } = await get('banks');
  expect(status).toBe(200);
  const banks = body as { code: string; nameTH: string; nameEN: string }[];
  expect(banks.map((b) => b.code)).toEqual(['SCB', 'KBANK', 'KTB', 'TMB', 'BBL', 'GSB', 'BAY', 'BCEL', 'LDB', 'APB', 'JDB']);
  expect(banks[1]).toEqual({ code: 'KBANK', nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank', name: 'ธนาคารกสิกรไทย', market: 'th', englishNameOnly: false });
  expect(banks.filter((b) => (b as { englishNameOnly?: boolean }).englishNameOnly).map((b) => b.code)).toEqual(['KTB', 'TMB', 'BBL']);
  for (const b of banks) expect(Object.keys(b).sort()).toEqual(['code', 'englishNameOnly', 'market', 'name', 'nameEN', 'nameTH']);
});

test('banks?market= offers one market: Thai banks for th, BCEL and the other Lao banks for lao (issue 12)', async () => {
  const codes = async (market: string) => ((await get(`banks?market=${market}`)).body as { code: string }[]).map((b) => b.code);
  expect(await codes('th')).toEqual(['SCB', 'KBANK', 'KTB', 'TMB', 'BBL', 'GSB', 'BAY']);
  expect(await codes('lao')).toEqual(['BCEL', 'LDB', 'APB', 'JDB']);
  // A bank the operator adds for the Lao market shows up there and nowhere else.
  await t.db.db.insertInto('banks').values({ code: 'STB', name_th: 'STB', name_en: 'ST Bank', bank_type: 'BANK', english_name_only: 0, sort: 84, market: 'lao' }).execute();
  try {
    expect(await codes('lao')).toEqual(['BCEL', 'LDB', 'APB', 'JDB', 'STB']);
    expect(await codes('th')).not.toContain('STB');
  } finally {
    await t.db.db.deleteFrom('banks').where('code', '=', 'STB').execute();
  }
  expect((await get('banks?market=vn')).status).toBe(400);
});

test('deposit lists active channels with bank names, currency only where set, wallets apart', async () => {
  const { status, body } = await get('deposit');
  expect(status).toBe(200);
  const d = body as { banks: Record<string, unknown>[]; wallets: unknown[]; isManual: boolean };
  expect(d.isManual).toBe(false);
  expect(d.banks.map((b) => b.bankCode)).toEqual(['KBANK', 'SCB', 'GSB', 'BCEL', 'WW', 'E2P']);
  expect(d.banks[0]).toEqual({
    bankCode: 'KBANK',
    bankType: 'BANK',
    mode: 'AUTO',
    bank: { nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank', name: 'ธนาคารกสิกรไทย' },
    bankAccountName: 'บจก. เดโม วอลเล็ท',
    bankAccountNo: '0123456789',
  });
  expect(d.banks.find((b) => b.bankCode === 'BCEL')?.currency).toBe('LAK');
  expect(d.banks.filter((b) => 'currency' in b)).toHaveLength(1);
  expect(d.banks.filter((b) => b.bankType === 'PAYMENT').map((b) => b.bankCode)).toEqual(['WW', 'E2P']);
  expect(d.wallets).toEqual([{ mode: 'gift', walletAccountName: 'Demo Wallet gift' }]);
});

test('deposit reflects the database: a deactivated channel disappears, isManual follows the setting', async () => {
  await t.db.db.updateTable('deposit_channels').set({ active: 0 }).where('bank_code', '=', 'SCB').execute();
  await writeSetting(t.db.db, 'deposit', { isManual: true });
  const d = (await get('deposit')).body as { banks: { bankCode: string }[]; isManual: boolean };
  expect(d.banks.map((b) => b.bankCode)).not.toContain('SCB');
  expect(d.isManual).toBe(true);
  await t.db.db.updateTable('deposit_channels').set({ active: 1 }).where('bank_code', '=', 'SCB').execute();
  await writeSetting(t.db.db, 'deposit', { isManual: false });
});

test('deposit names the QR minimums the server enforces (depositRules), the defaults when the operator set none', async () => {
  expect(((await get('deposit')).body as { qrMinimums: unknown }).qrMinimums).toEqual({ KBANK: 1, WW: 100, E2P: 50 });
  await writeSettingDoc(t.db.db, 'depositRules', { qrMinimum: 20, e2pMinimum: 75 });
  try {
    expect(((await get('deposit')).body as { qrMinimums: unknown }).qrMinimums).toEqual({ KBANK: 20, WW: 100, E2P: 75 });
  } finally {
    await t.db.db.deleteFrom('settings').where('key', '=', 'depositRules').execute();
  }
});

test('deposit names the gift minimum (depositRules) and the credit time (deposit setting) the texts state (issue 12)', async () => {
  const body = async () => (await get('deposit')).body as { giftMinimum: number; creditMinutes: number };
  expect(await body()).toMatchObject({ giftMinimum: 2, creditMinutes: 1 });
  await writeSettingDoc(t.db.db, 'depositRules', { giftMinimum: 10 });
  await writeSetting(t.db.db, 'deposit', { isManual: false, creditMinutes: 5 });
  try {
    expect(await body()).toMatchObject({ giftMinimum: 10, creditMinutes: 5 });
    // The conditions say the same gift minimum.
    expect(((await get('conditions?lang=en')).body as string[]).join('')).toContain('Gift-link deposits from 10 baht');
    // A deposit setting from before issue 12 (no creditMinutes) reads as 1 minute.
    await writeSetting(t.db.db, 'deposit', { isManual: false });
    expect(await body()).toMatchObject({ creditMinutes: 1 });
  } finally {
    await t.db.db.deleteFrom('settings').where('key', '=', 'depositRules').execute();
    await writeSetting(t.db.db, 'deposit', SETTINGS.deposit);
  }
});

test('info carries the operator logo when the info setting has one (issue 12: the top bar shows it)', async () => {
  await writeSetting(t.db.db, 'info', { ...SETTINGS.info, logo: '/media/logo.png' });
  try {
    expect((await get('info')).body).toMatchObject({ name: 'Demo Wallet', logo: '/media/logo.png' });
  } finally {
    await writeSetting(t.db.db, 'info', SETTINGS.info);
  }
  expect((await get('info')).body).not.toHaveProperty('logo');
});

test('conditions and agreements are lists of HTML; conditions carry the configured minimum age', async () => {
  const c = (await get('conditions')).body as string[];
  expect(c.length).toBeGreaterThan(1);
  expect(c[0]).toContain('20');
  expect(c.join('')).not.toContain('%minPlayerAge%');
  const a = (await get('agreements')).body as string[];
  expect(a.length).toBeGreaterThan(0);
  for (const html of [...c, ...a]) expect(html).toMatch(/^<p>/);
});

describe('conditions and agreements per language (issue 12)', () => {
  afterEach(async () => {
    await writeSetting(t.db.db, 'conditions', SETTINGS.conditions);
    await writeSetting(t.db.db, 'agreements', SETTINGS.agreements);
    await writeSetting(t.db.db, 'withdraw', SETTINGS.withdraw);
  });

  test('?lang= serves that language; none serves Thai', async () => {
    const first = async (name: string, lang?: string) => ((await get(lang ? `${name}?lang=${lang}` : name)).body as string[])[0];
    expect(await first('conditions', 'th')).toContain('ผู้เล่นต้องมีอายุ 20 ปีขึ้นไป');
    expect(await first('conditions', 'la')).toContain('ຜູ້ຫຼິ້ນຕ້ອງມີອາຍຸ 20 ປີຂຶ້ນໄປ');
    expect(await first('conditions', 'en')).toContain('Players must be 20 or older.');
    expect(await first('conditions')).toContain('ผู้เล่นต้องมีอายุ 20');
    expect(await first('agreements', 'la')).toContain('ຂ້າພະເຈົ້າຢືນຢັນ');
    expect(await first('agreements', 'en')).toContain('I confirm');
    expect(await first('agreements')).toContain('ข้าพเจ้ายืนยัน');
    expect((await get('conditions?lang=fr')).status).toBe(400);
  });

  test('a language the operator did not store falls back to Thai; a plain list (before issue 12) is served for every language', async () => {
    await writeSetting(t.db.db, 'agreements', { th: ['<p>ไทย</p>'], en: ['<p>English</p>'] });
    expect((await get('agreements?lang=la')).body).toEqual(['<p>ไทย</p>']);
    expect((await get('agreements?lang=en')).body).toEqual(['<p>English</p>']);
    await writeSetting(t.db.db, 'agreements', { en: ['<p>English</p>'] });
    expect((await get('agreements?lang=la')).body).toEqual(['<p>English</p>']);
    await writeSetting(t.db.db, 'agreements', ['<p>ไทย / English</p>']);
    expect((await get('agreements?lang=en')).body).toEqual(['<p>ไทย / English</p>']);
  });

  test('the withdraw limits and the slip window in the conditions come from the settings', async () => {
    await writeSetting(t.db.db, 'withdraw', { withdrawMin: 300, withdrawMax: 20000 });
    const en = ((await get('conditions?lang=en')).body as string[]).join('');
    expect(en).toContain('Withdrawals of 300 to 20,000 baht');
    expect(en).toContain('within 60 minutes of the transfer');
    expect(en).not.toMatch(/%\w+%/);
  });
});

test('the minimum age follows MIN_PLAYER_AGE: the conditions and info.minPlayerAge (the registration checkbox) name it', async () => {
  const t2 = await buildTestApp({ MIN_PLAYER_AGE: '21' });
  try {
    const res = await t2.app.inject({ method: 'GET', url: '/api/lookup/conditions' });
    expect((res.json() as string[])[0]).toContain('อายุ 21 ปีขึ้นไป');
    expect((await t2.app.inject({ method: 'GET', url: '/api/lookup/info' })).json()).toMatchObject({ minPlayerAge: 21 });
  } finally {
    await t2.close();
  }
});

test('info, notice, contact, withdraw have their exact shapes', async () => {
  expect((await get('info')).body).toEqual({ name: 'Demo Wallet', website: 'https://wallet.example.com', demo: true, minPlayerAge: 20, passwordMinLength: 6 });
  expect(Object.keys((await get('notice')).body as object)).toEqual(['notice']);
  const contact = (await get('contact')).body as Record<string, string>;
  expect(Object.keys(contact).sort()).toEqual(['contactText', 'lineLink', 'lineName', 'lineQR']);
  expect(contact.lineQR).toMatch(/^data:image\/png;base64,/);
  expect((await get('withdraw')).body).toEqual({ withdrawMin: 100, withdrawMax: 50000 });
});

test('an operator edit shows up at once, and unknown keys in a stored document never leak', async () => {
  await writeSetting(t.db.db, 'info', { name: 'ร้านใหม่', website: 'https://new.example', secret: 'x' } as never);
  expect((await get('info')).body).toEqual({ name: 'ร้านใหม่', website: 'https://new.example', demo: true, minPlayerAge: 20, passwordMinLength: 6 });
  await writeSetting(t.db.db, 'info', SETTINGS.info);
});

test('info says whether demo mode is on (the SPA shows its demo banner), whatever the stored document says', async () => {
  // Outside demo mode every outside service must be chosen explicitly; the simulators are chosen on purpose here.
  const keys = ['GAME_PROVIDER', 'PAYOUT_PROVIDER', 'PAYMENT_GATEWAY', 'SLIP_VERIFIER', 'GIFT_REDEEMER'];
  const saved = keys.map((k) => process.env[k]);
  for (const k of keys) process.env[k] = 'simulator';
  try {
    const prod = await buildTestApp({ DEMO: 'off' });
    try {
      await writeSetting(prod.db.db, 'info', { ...SETTINGS.info, demo: true } as never);
      const res = await prod.app.inject({ method: 'GET', url: '/api/lookup/info' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ name: 'Demo Wallet', website: 'https://wallet.example.com', demo: false, minPlayerAge: 20, passwordMinLength: 6 });
    } finally {
      await prod.close();
    }
  } finally {
    keys.forEach((k, i) => (saved[i] === undefined ? delete process.env[k] : (process.env[k] = saved[i])));
  }
  expect((await get('info')).body).toMatchObject({ demo: true });
});

test('sources, registerOTP and enableChatWidget', async () => {
  const sources = (await get('sources')).body as { code: string; description: string }[];
  expect(sources.map((s) => s.code)).toEqual(['facebook', 'google', 'line', 'tiktok', 'friend', 'other']);
  expect(Object.keys(sources[0]).sort()).toEqual(['code', 'description']);
  expect((await get('registerOTP')).body).toEqual({ registerOTP: false });
  expect((await get('enableChatWidget')).body).toEqual({ enableChatWidget: true });
  await writeSetting(t.db.db, 'enableChatWidget', false);
  expect((await get('enableChatWidget')).body).toEqual({ enableChatWidget: false });
  await writeSetting(t.db.db, 'enableChatWidget', true);
});

test('howto lists the five videos in order with their poster and captions, each file present in public/media', async () => {
  const { status, body } = await get('howto');
  expect(status).toBe(200);
  const { videos } = body as { videos: { key: string; url: string | null; poster: string | null; captions: Record<string, string> }[] };
  expect(videos.map((v) => v.key)).toEqual(['wallet', 'play', 'balance', 'bonus', 'cancelBonus']);
  expect(videos[0]).toEqual({
    key: 'wallet',
    url: '/media/howto/wallet.webm',
    poster: '/media/howto/wallet.jpg',
    captions: { th: '/media/howto/wallet.th.vtt', la: '/media/howto/wallet.la.vtt', en: '/media/howto/wallet.en.vtt' },
  });
  for (const v of videos) {
    for (const url of [v.url, v.poster, ...Object.values(v.captions)]) {
      const res = await t.app.inject({ method: 'GET', url: url! });
      expect([url, res.statusCode]).toEqual([url, 200]);
    }
  }
});

test('howto: a video the operator dropped has none (null), unknown fields never leak, and no document is 404', async () => {
  await writeSetting(t.db.db, 'howto', {
    videos: [{ key: 'play', url: 'https://cdn.example/play.webm', poster: null, captions: { en: '/media/x.vtt', fr: 'no' } as never, secret: 1 } as never],
  });
  const { videos } = (await get('howto')).body as { videos: object[] };
  expect(videos).toHaveLength(5);
  expect(videos[0]).toEqual({ key: 'wallet', url: null, poster: null, captions: {} });
  expect(videos[1]).toEqual({ key: 'play', url: 'https://cdn.example/play.webm', poster: null, captions: { en: '/media/x.vtt' } });
  await t.db.db.deleteFrom('settings').where('key', '=', 'howto').execute();
  expect(await get('howto')).toMatchObject({ status: 404, body: { message: 'NO_DATA' } });
  await writeSetting(t.db.db, 'howto', SETTINGS.howto);
});

test('registerOTP follows REGISTER_OTP', async () => {
  const t2 = await buildTestApp({ REGISTER_OTP: 'on' });
  try {
    expect((await t2.app.inject({ method: 'GET', url: '/api/lookup/registerOTP' })).json()).toEqual({ registerOTP: true });
  } finally {
    await t2.close();
  }
});

test('active says gone only when the operator terminated the site', async () => {
  expect((await get('active')).body).toEqual({ terminated: null });
  await writeSetting(t.db.db, 'site', { terminated: 'gone' });
  expect((await get('active')).body).toEqual({ terminated: 'gone' });
  await writeSetting(t.db.db, 'site', { terminated: null });
  expect((await get('active')).body).toEqual({ terminated: null });
});

describe('slip', () => {
  const realNow = () => t.app.clock.now;
  let restore: () => Date;
  // The seeded closed hours (the test app opens slips all day, see openSlipsAllDay) and a clock set by each test.
  beforeEach(async () => {
    restore = realNow();
    await writeSetting(t.db.db, 'slip', SETTINGS.slip);
  });
  afterEach(() => {
    t.app.clock.now = restore;
  });

  test('is closed inside the daily closed hours (Bangkok time) and open outside them', async () => {
    t.app.clock.now = () => new Date('2026-03-01T17:00:00Z'); // 00:00 in Bangkok
    expect((await get('slip')).body).toEqual({ isOpen: false, closeFrom: '23:50', closeTo: '00:10', uploadWindowMinutes: 60 });
    t.app.clock.now = () => new Date('2026-03-01T05:00:00Z'); // 12:00 in Bangkok
    expect((await get('slip')).body).toEqual({ isOpen: true, closeFrom: '23:50', closeTo: '00:10', uploadWindowMinutes: 60 });
  });

  test("the operator's switch closes uploads at any hour", async () => {
    t.app.clock.now = () => new Date('2026-03-01T05:00:00Z');
    await writeSetting(t.db.db, 'slip', { ...SETTINGS.slip, isOpen: false });
    expect(((await get('slip')).body as { isOpen: boolean }).isOpen).toBe(false);
  });

  test('no closed hours means open all day', async () => {
    t.app.clock.now = () => new Date('2026-03-01T17:00:00Z');
    await writeSetting(t.db.db, 'slip', { ...SETTINGS.slip, closeFrom: null, closeTo: null });
    expect((await get('slip')).body).toEqual({ isOpen: true, closeFrom: null, closeTo: null, uploadWindowMinutes: 60 });
  });
});

test('a missing document answers 404 NO_DATA, never an empty 200', async () => {
  await t.db.db.deleteFrom('settings').where('key', '=', 'notice').execute();
  const { status, body } = await get('notice');
  expect(status).toBe(404);
  expect(body).toEqual({ message: 'NO_DATA' });
  await writeSetting(t.db.db, 'notice', SETTINGS.notice);
});

test('lookups take no query parameters but their own (banks: market; conditions, agreements: lang)', async () => {
  for (const url of ['/api/lookup/banks?x=1', '/api/lookup/info?lang=en', '/api/lookup/conditions?market=th']) {
    const res = await t.app.inject({ method: 'GET', url });
    expect([url, res.statusCode]).toEqual([url, 400]);
    expect(res.json()).toHaveProperty('message');
  }
});

test('info names the password rule in force (PASSWORD_MIN_LENGTH), for the registration hint (issue 12)', async () => {
  const saved = process.env.PASSWORD_MIN_LENGTH;
  process.env.PASSWORD_MIN_LENGTH = '8';
  try {
    const t2 = await buildTestApp();
    try {
      expect((await t2.app.inject({ method: 'GET', url: '/api/lookup/info' })).json()).toMatchObject({ passwordMinLength: 8 });
    } finally {
      await t2.close();
    }
  } finally {
    if (saved === undefined) delete process.env.PASSWORD_MIN_LENGTH;
    else process.env.PASSWORD_MIN_LENGTH = saved;
  }
});

test('lookups are public: no token needed', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/lookup/info', headers: { authorization: 'Bearer nonsense' } });
  expect(res.statusCode).toBe(200);
});
