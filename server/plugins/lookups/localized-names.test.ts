import { buildTestApp, type TestApp } from '../../test/support/helper';
import { SETTINGS } from '../../db/seed';
import { writeSetting } from '../../settings';

/** Issue 40 item 13: names and the contact text in the player's language, the spec's wire fields kept. */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const get = async <T>(url: string, cookie?: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/lookup/${url}`, headers: cookie ? { cookie } : {} });
  expect([url, res.statusCode]).toEqual([url, 200]);
  return res.json() as T;
};

type Bank = { code: string; nameTH: string; nameEN: string; name: string };
type Deposit = { banks: { bankCode: string; bank: Bank; bankAccountName: string }[]; wallets: { walletAccountName: string }[] };

test('banks: name in the asked language (Lao from the names setting), nameTH and nameEN as the table holds them', async () => {
  const kbank = async (q: string) => (await get<Bank[]>(`banks?market=th${q}`)).find((b) => b.code === 'KBANK');
  expect(await kbank('&lang=la')).toMatchObject({ nameTH: 'ธนาคารกสิกรไทย', nameEN: 'Kasikornbank', name: 'ທະນາຄານກະສິກອນໄທ' });
  expect((await kbank('&lang=en'))?.name).toBe('Kasikornbank');
  expect((await kbank('&lang=th'))?.name).toBe('ธนาคารกสิกรไทย');
  expect((await kbank(''))?.name).toBe('ธนาคารกสิกรไทย');
  // Every bank has a Lao name of its own, none falls back to Thai or English.
  for (const b of await get<Bank[]>('banks?lang=la')) expect([b.code, b.name === b.nameTH || b.name === b.nameEN]).toEqual([b.code, false]);
});

test('deposit: methods by name without gateway codes, account names per language; the SPA lang cookie when no ?lang=', async () => {
  const la = await get<Deposit>('deposit?lang=la');
  const ww = la.banks.find((b) => b.bankCode === 'WW');
  expect(ww?.bank).toEqual({ nameTH: 'ชำระผ่าน QR วอลเล็ต (WW)', nameEN: 'Wallet QR payment (WW)', name: 'ທຣູມັນນີ່ ວໍເລັດ (QR)' });
  expect(ww?.bankAccountName).toBe('ເດໂມ ວໍເລັດ');
  expect(la.banks.find((b) => b.bankCode === 'KBANK')?.bankAccountName).toBe('ບໍລິສັດ ເດໂມ ວໍເລັດ ຈຳກັດ');
  for (const lang of ['th', 'la', 'en']) {
    const d = await get<Deposit>(`deposit?lang=${lang}`);
    for (const b of d.banks) expect([lang, b.bankCode, b.bank.name, b.bankAccountName]).not.toEqual(expect.arrayContaining([expect.stringMatching(/\((WW|E2P)\)/)]));
  }
  const en = await get<Deposit>('deposit', 'theme=dark; lang=en');
  expect(en.banks.find((b) => b.bankCode === 'E2P')?.bank.name).toBe('PromptPay QR, any bank');
  // A BCEL account name stored without translations stays as stored.
  expect(en.banks.find((b) => b.bankCode === 'BCEL')?.bankAccountName).toBe('DEMO WALLET SOLE CO LTD');
  // ?lang= wins over the cookie; an unknown cookie value is no language (Thai names).
  expect((await get<Deposit>('deposit?lang=th', 'lang=en')).banks[0].bank.name).toBe('ธนาคารกสิกรไทย');
  expect((await get<Deposit>('deposit', 'lang=fr')).banks[0].bank.name).toBe('ธนาคารกสิกรไทย');
});

test('sources and the contact text per language; a stored plain contact text or a names setting removed still serve', async () => {
  const friend = async (lang: string) => (await get<{ code: string; description: string }[]>(`sources?lang=${lang}`)).find((s) => s.code === 'friend')?.description;
  expect(await friend('la')).toBe('ໝູ່ແນະນຳ');
  expect(await friend('en')).toBe('A friend');
  expect((await get<{ description: string }[]>('sources'))[4].description).toBe('เพื่อนแนะนำ / Friend');
  const contact = async (q: string) => (await get<{ contactText: string }>(`contact${q}`)).contactText;
  expect(await contact('?lang=la')).toContain('ຕິດຕໍ່ພະນັກງານ');
  expect(await contact('?lang=en')).toBe('<p>Our staff answer 24 hours a day on LINE or in the chat below.</p>');
  expect(await contact('')).toContain('ติดต่อเจ้าหน้าที่');
  const stored = (await t.db.db.selectFrom('settings').select('value').where('key', '=', 'contact').executeTakeFirstOrThrow()).value;
  try {
    await writeSetting(t.db.db, 'contact', { ...SETTINGS.contact, contactText: '<p>ไทย / English</p>' });
    expect(await contact('?lang=la')).toBe('<p>ไทย / English</p>');
    await writeSetting(t.db.db, 'contact', { ...SETTINGS.contact, contactText: { en: '<p>English only</p>' } });
    expect(await contact('?lang=la')).toBe('<p>English only</p>');
    await t.db.db.deleteFrom('settings').where('key', '=', 'names').execute();
    expect((await get<Bank[]>('banks?lang=la')).find((b) => b.code === 'KBANK')?.name).toBe('Kasikornbank');
    expect(await friend('en')).toBe('เพื่อนแนะนำ / Friend');
  } finally {
    await t.db.db.updateTable('settings').set({ value: stored }).where('key', '=', 'contact').execute();
    await writeSetting(t.db.db, 'names', SETTINGS.names!);
  }
});
