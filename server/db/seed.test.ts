import fs from 'node:fs';
import path from 'node:path';
import { freshDb, type TestDb } from '../test/support/helper';
import { seedBase, GAMES } from './seed';
import { seedDemo, demoSeedSteps, DEMO_PLAYER, type DemoSeedStep } from '../demo/index';
import { verifyPassword } from '../lib/password';

let db: TestDb;
beforeAll(async () => {
  db = await freshDb();
  await seedBase(db.db);
});
afterAll(() => db.dispose());

const count = async (table: 'banks' | 'sources' | 'settings' | 'games' | 'deposit_channels' | 'players') =>
  Number((await db.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

test('banks: Thai and English names, payment types apart, English-only names for KTB, TMB, BBL', async () => {
  const banks = await db.db.selectFrom('banks').selectAll().orderBy('sort').execute();
  expect(banks.map((b) => b.code)).toEqual(['SCB', 'KBANK', 'KTB', 'TMB', 'BBL', 'GSB', 'BAY', 'BCEL', 'LDB', 'APB', 'JDB', 'WW', 'E2P']);
  // Issue 12: the Lao build's banks are marked lao; every other bank is Thai.
  expect(banks.filter((b) => b.market === 'lao').map((b) => b.code)).toEqual(['BCEL', 'LDB', 'APB', 'JDB']);
  expect(banks.filter((b) => b.market !== 'lao').every((b) => b.market === 'th')).toBe(true);
  for (const b of banks) {
    expect(b.name_th).toMatch(/[\u0e00-\u0e7f]/); // Thai script
    expect(b.name_en).toMatch(/^[\x20-\x7eÀ-ÿ]+$/);
  }
  expect(banks.filter((b) => b.english_name_only === 1).map((b) => b.code)).toEqual(['KTB', 'TMB', 'BBL']);
  expect(banks.filter((b) => b.bank_type === 'PAYMENT').map((b) => b.code)).toEqual(['WW', 'E2P']);
});

test('settings hold every lookup document as JSON', async () => {
  const rows = await db.db.selectFrom('settings').select(['key', 'value']).execute();
  const s = Object.fromEntries(rows.map((r) => [r.key, JSON.parse(r.value)]));
  expect(Object.keys(s).sort()).toEqual(
    ['agreements', 'conditions', 'contact', 'deposit', 'enableChatWidget', 'howto', 'info', 'names', 'notice', 'site', 'slip', 'withdraw'],
  );
  expect(s.withdraw).toEqual({ withdrawMin: 100, withdrawMax: 50000 });
  expect(s.slip).toMatchObject({ isOpen: true, uploadWindowMinutes: 60 });
  expect(s.site).toEqual({ terminated: null });
  // Per language (issue 12); the placeholders are filled when served.
  expect(Object.keys(s.conditions).sort()).toEqual(['en', 'la', 'th']);
  expect(Object.keys(s.agreements).sort()).toEqual(['en', 'la', 'th']);
  for (const lang of ['th', 'la', 'en']) {
    expect(s.conditions[lang][0]).toContain('%minPlayerAge%');
    expect(s.conditions[lang]).toHaveLength(s.conditions.th.length);
    expect(s.agreements[lang]).toHaveLength(s.agreements.th.length);
  }
  expect(s.conditions.la[0]).toMatch(/[\u0e80-\u0eff]/); // Lao script
});

test('game catalogue: the eleven auto-login games in three categories and the seamless demo slot, with their images on disk', async () => {
  const games = await db.db.selectFrom('games').selectAll().orderBy('sort').execute();
  expect(games.map((g) => g.code).sort()).toEqual(
    ['areaslot', 'askmebet', 'betflix', 'circus', 'h88dragon', 'huayhd', 'imi', 'joker2', 'pg', 'pgslot', 'slotracha', 'usun'],
  );
  // Issue 42: one slot plays from the wallet through the aggregator (its simulator in demo mode); the rest are transfer games.
  expect(games.filter((g) => g.wallet_mode === 'seamless').map((g) => [g.code, g.aggregator, g.aggregator_game_code])).toEqual([['h88dragon', 'hub88', 'sim_dragon_rising']]);
  expect(games.filter((g) => g.wallet_mode === 'transfer' && g.aggregator === null && g.aggregator_game_code === null)).toHaveLength(11);
  const by = (c: string) => games.filter((g) => g.category === c).map((g) => g.code);
  expect(by('lotto')).toEqual(['huayhd']);
  expect(by('sport')).toEqual(['usun', 'askmebet', 'imi', 'betflix']);
  expect(by('slot')).toHaveLength(7);
  expect(games.filter((g) => g.ft_wallet_slot !== 1).length).toBeGreaterThanOrEqual(2);
  expect(games.filter((g) => g.login_with_password === 1).length).toBeGreaterThanOrEqual(1);
  const publicDir = path.join(__dirname, '..', '..', 'public');
  for (const g of games) {
    expect(g.background).toMatch(/^\/games\/[\w-]+-bg\.svg$/);
    expect(fs.readFileSync(path.join(publicDir, g.background), 'utf8')).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    // The logo is a PNG drawn from its SVG source (scripts/rasterize-game-logos.ts): 3x the 48 x 24 the home shows.
    expect(g.logo).toBe(`/games/${g.code}-logo.png`);
    const png = fs.readFileSync(path.join(publicDir, g.logo));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([144, 72]);
    expect(fs.readFileSync(path.join(publicDir, `/games/${g.code}-logo.svg`), 'utf8')).toMatch(/^<svg /);
  }
});

test('a second run changes nothing and keeps the operator\'s edits', async () => {
  const before = await Promise.all((['banks', 'sources', 'settings', 'games', 'deposit_channels'] as const).map(count));
  await db.db.updateTable('settings').set({ value: JSON.stringify({ withdrawMin: 300, withdrawMax: 20000 }) }).where('key', '=', 'withdraw').execute();
  await db.db.updateTable('games').set({ name: 'PG (edited)' }).where('code', '=', 'pg').execute();
  await db.db.deleteFrom('settings').where('key', '=', 'notice').execute(); // a key a newer release adds

  await seedBase(db.db);

  const after = await Promise.all((['banks', 'sources', 'settings', 'games', 'deposit_channels'] as const).map(count));
  expect(after).toEqual(before);
  const w = await db.db.selectFrom('settings').select('value').where('key', '=', 'withdraw').executeTakeFirstOrThrow();
  expect(JSON.parse(w.value)).toEqual({ withdrawMin: 300, withdrawMax: 20000 });
  expect((await db.db.selectFrom('games').select('name').where('code', '=', 'pg').executeTakeFirstOrThrow()).name).toBe('PG (edited)');
  expect(await db.db.selectFrom('settings').select('key').where('key', '=', 'notice').executeTakeFirst()).toBeDefined();
  expect(GAMES).toHaveLength(12);
});

describe('seedDemo', () => {
  const seen: number[] = [];
  const step: DemoSeedStep = async (_db, player) => {
    seen.push(player.id);
  };
  beforeAll(() => demoSeedSteps.push(step));
  afterAll(() => demoSeedSteps.splice(demoSeedSteps.indexOf(step), 1));

  test('creates the demo player once, with a scrypt hash of the printed password, then runs the extra steps', async () => {
    const first = await seedDemo(db.db);
    expect(first).toEqual({ id: expect.any(Number), phone: '0812345678', password: 'demo1234' });
    const row = await db.db.selectFrom('players').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ phone: DEMO_PLAYER.phone, bank_code: 'KBANK', status: 'active', currency: 'THB' });
    expect(row.bank_account_name).toMatch(/^[A-Z ]+$/);
    expect(row.password_hash).toMatch(/^scrypt\$/);
    await expect(verifyPassword('demo1234', row.password_hash)).resolves.toBe(true);

    const second = await seedDemo(db.db);
    expect(second.id).toBe(first.id);
    expect(await count('players')).toBe(1);
    expect(seen).toEqual([first.id, first.id]);
  });
});
