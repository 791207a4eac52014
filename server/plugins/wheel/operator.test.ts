import fs from 'node:fs';
import path from 'node:path';
import { USAGE } from '../../cli/operator-cli';
import { operatorSession } from '../../test/support/operator';
import { seedDemo } from '../../demo/index';
import { readInviteSettings } from '../invite/settings';
import { DEMO_WHEEL } from '../../demo/wheel';
import { parseWheel } from './config';
import { buildInviteWheelTestApp, testSlice, type InviteWheelTestApp } from '../../test/support/wheel';
import { readSettingDoc, writeSettingDoc } from '../../settings';
import { DEPOSIT_RULES_KEY } from '../deposits/domain/rules';

/**
 * Operators define the wheel and the invite bonus with `npm run operator -- wheel|invite ...` from JSON files,
 * without editing code; the demo seed has an active wheel of 8 slices and invites on. Through runOperator, the
 * CLI's own entry, on the test database; the API shows each change at once.
 */
jest.setTimeout(60_000);

let t: InviteWheelTestApp;
const { run, file, missing, out, err, cleanup } = operatorSession(() => ({ db: t.db.db, config: t.app.config }));
const L = (s: string) => ({ th: `${s} th`, la: `${s} la`, en: `${s} en` });
const wheelFile = (over: Record<string, unknown> = {}) => ({
  isActive: true,
  name: L('Op wheel'),
  couponValidDays: 3,
  slices: [
    testSlice({ code: 'big', weight: 1, type: 'cash', amount: 100 }),
    testSlice({ code: 'SMALL', weight: 3, type: 'cash', amount: 5 }),
    testSlice({ code: 'AGAIN', weight: 4, type: 'coin', amount: 1 }),
    testSlice({ code: 'OFF', weight: 2, type: 'none', active: false }),
  ],
  ...over,
});

beforeAll(async () => {
  t = await buildInviteWheelTestApp();
});
afterAll(async () => {
  cleanup();
  await t.close();
});

test('the usage lists the wheel and invite commands; an unknown subcommand is usage (2)', async () => {
  expect(USAGE).toMatch(/wheel set <file\.json>/);
  expect(USAGE).toMatch(/wheel on\|off/);
  expect(USAGE).toMatch(/invite set <file\.json>/);
  for (const args of [['wheel', 'spin'], ['invite', 'nonsense'], ['wheel', 'on', 'extra']]) {
    expect(await run(...args)).toBe(2);
    expect(err).toEqual([USAGE]);
  }
});

test('wheel set writes the wheel from a file; the list shows each chance; show round-trips through set; the API follows', async () => {
  const p = await t.player({ coins: 1 });
  await t.db.db.deleteFrom('settings').where('key', '=', 'spinwheel').execute();
  expect(await run('wheel')).toBe(1);
  expect(await run('wheel', 'set', file('wheel.json', wheelFile()))).toBe(0);
  expect(out).toEqual(['wheel: set, on, 3 active slices']);
  expect(await run('wheel')).toBe(0);
  expect(out).toEqual([
    'wheel [on] Op wheel en, coupons valid 3 days, 3 active slices of 4',
    '  BIG [on] "big label" weight 1 (12.50%): cash 100 baht',
    '  SMALL [on] "SMALL label" weight 3 (37.50%): cash 5 baht',
    '  AGAIN [on] "AGAIN label" weight 4 (50.00%): 1 coin',
    '  OFF [off] "OFF label" weight 2 (-): no prize',
    'spins 0; coupons won 0, claimed 0, expired 0; spin budget paid 0.00',
  ]);
  const setup = (await t.get(p, '/api/spinwheel/setup')).json().result.activeSpinwheel;
  expect(setup.slices.map((s: { code: string }) => s.code)).toEqual(['BIG', 'SMALL', 'AGAIN']);

  expect(await run('wheel', 'show')).toBe(0);
  const shown = JSON.parse(out.join('\n'));
  expect(await run('wheel', 'set', file('again.json', shown))).toBe(0);
  expect(await run('wheel', 'show')).toBe(0);
  expect(JSON.parse(out.join('\n'))).toEqual(shown);

  // The figures after a spin and a claim.
  t.setRandom(() => 0);
  const id = (await t.spin(p)).json().result.couponId;
  await t.claim(p, id);
  await run('wheel');
  expect(out.at(-1)).toBe('spins 1; coupons won 1, claimed 1, expired 0; spin budget paid 100.00 THB');
});

test('wheel off hides it and refuses spins; wheel on shows it again', async () => {
  const p = await t.player({ coins: 1 });
  await run('wheel', 'set', file('wheel.json', wheelFile()));
  expect(await run('wheel', 'off')).toBe(0);
  expect(out).toEqual(['wheel: off']);
  expect((await t.get(p, '/api/spinwheel/active')).json()).toEqual({ isActive: false });
  expect((await t.spin(p)).json()).toEqual({ message: 'WHEEL_INACTIVE' });
  expect(await run('wheel', 'on')).toBe(0);
  expect((await t.get(p, '/api/spinwheel/active')).json()).toEqual({ isActive: true });
});

test('wheel coin-turnover shows and sets the deposit rules\' coinTurnover (other rules kept); a bad multiple writes nothing', async () => {
  expect(await run('wheel', 'coin-turnover')).toBe(0);
  expect(out).toEqual(['coin-turnover: 1']);
  await writeSettingDoc(t.db.db, DEPOSIT_RULES_KEY, { coinThreshold: 50 });
  expect(await run('wheel', 'coin-turnover', '2.5')).toBe(0);
  expect(await readSettingDoc(t.db.db, DEPOSIT_RULES_KEY)).toEqual({ coinThreshold: 50, coinTurnover: 2.5 });
  for (const bad of ['-1', '101', '1.234', 'x']) expect(await run('wheel', 'coin-turnover', bad)).toBe(2);
  expect(await readSettingDoc(t.db.db, DEPOSIT_RULES_KEY)).toEqual({ coinThreshold: 50, coinTurnover: 2.5 });
  await writeSettingDoc(t.db.db, DEPOSIT_RULES_KEY, {});
});

test('a wheel file that fails the checks is refused as a whole, every problem printed, nothing written', async () => {
  await run('wheel', 'set', file('good.json', wheelFile()));
  await run('wheel', 'show');
  const before = out.join('\n');
  const bad = wheelFile({
    couponValidDays: 0,
    extra: 1,
    slices: [
      { ...testSlice({ code: 'A', weight: 0, type: 'cash', amount: 0.001 }), bgColor: 'red' },
      { ...testSlice({ code: 'a', weight: 1.5, type: 'coin', amount: 2.5 }), label: '' },
      { ...testSlice({ code: 'N', weight: 1, type: 'none' }), prize: { type: 'none', amount: 5, htmlDescription: { th: 'x', la: 'x' } } },
      { ...testSlice({ code: 'bad code!', weight: 1, type: 'cash' }), prize: { type: 'gold', htmlDescription: L('x') } },
    ],
  });
  expect(await run('wheel', 'set', file('bad.json', bad))).toBe(2);
  expect(err).toEqual([
    'the wheel has unknown fields: extra',
    'couponValidDays must be a whole number of days 1-365',
    'slices[0].bgColor must be a colour #rrggbb',
    'slices[0].weight must be a whole number 1-1000000',
    'slices[0].prize.amount must be 0.01-1,000,000 baht with at most 2 decimals for a cash prize',
    'slices[1].label must be 1-32 characters',
    'slices[1].weight must be a whole number 1-1000000',
    'slices[1].prize.amount must be a whole number of coins 1-1000 for a coin prize',
    'slices[2].prize.amount must be 0 or left out for a none prize',
    'slices[2].prize.htmlDescription.en must be a non-empty string',
    'slices[3].code must be 1-32 characters A-Z, 0-9, _ or - (case-insensitive)',
    'slices[3].prize.type must be cash, coin or none',
    'slice code A is used twice',
    'nothing was written',
  ]);
  expect(await run('wheel', 'set', file('broken.json', '{"isActive": tr'))).toBe(2);
  expect(err[0]).toMatch(/is not JSON/);
  expect(await run('wheel', 'set', missing('missing.json'))).toBe(2);
  expect(err[0]).toMatch(/cannot read/);
  // An active wheel needs 2 to 16 active slices (what the SPA draws).
  expect(await run('wheel', 'set', file('one.json', wheelFile({ slices: [testSlice({ code: 'ONLY', weight: 1, type: 'none' })] })))).toBe(2);
  expect(err).toEqual(['an active wheel needs at least 2 active slices, got 1', 'nothing was written']);
  const seventeen = Array.from({ length: 17 }, (_, i) => testSlice({ code: `S${i}`, weight: 1, type: 'none' }));
  expect(await run('wheel', 'set', file('many.json', wheelFile({ slices: seventeen })))).toBe(2);
  expect(err[0]).toBe('at most 16 active slices (the wheel shows them all), got 17');
  // Switched off, one active slice may be stored, but not switched on.
  expect(await run('wheel', 'set', file('one-off.json', wheelFile({ isActive: false, slices: [testSlice({ code: 'ONLY', weight: 1, type: 'none' })] })))).toBe(0);
  expect(await run('wheel', 'on')).toBe(2);
  expect(err).toEqual(['an active wheel needs at least 2 active slices, got 1']);
  await run('wheel', 'set', file('good.json', wheelFile()));
  await run('wheel', 'show');
  expect(out.join('\n')).toBe(before);
});

test('invite shows the settings; invite set changes the fields given; on and off switch it; a bad file writes nothing', async () => {
  const p = await t.player();
  expect(await run('invite', 'off')).toBe(0);
  expect((await t.get(p, '/api/invite/bonus')).json()).toEqual({ message: 'INVITE_INACTIVE' });
  expect(await run('invite', 'set', file('invite.json', { percent: 7.5, cap: 300, banners: [{ image: '/games/banner-invite.svg', html: L('friends') }] }))).toBe(0);
  expect(await readInviteSettings(t.db.db)).toEqual({ isActive: false, percent: 7.5, cap: 300, turnover: 1, dailyCap: 1000, banners: [{ image: '/games/banner-invite.svg', html: L('friends') }] });
  expect(await run('invite', 'on')).toBe(0);
  expect((await t.get(p, '/api/invite/banners')).json()).toEqual({ banners: [{ image: '/games/banner-invite.svg', html: L('friends') }] });
  expect(await run('invite')).toBe(0);
  expect(JSON.parse(out.slice(0, -1).join('\n'))).toMatchObject({ isActive: true, percent: 7.5, cap: 300 });
  expect(out.at(-1)).toBe('invite budget paid 0.00; earnings waiting to be received: none');

  expect(await run('invite', 'set', file('bad-invite.json', { percent: 101, cap: -1, isActive: 'yes', banners: [{ image: '' }], more: true }))).toBe(2);
  expect(err).toEqual([
    'unknown fields: more',
    'isActive must be true or false',
    'percent must be a percentage 0-100 with at most 2 decimals',
    'cap must be an amount above 0 baht with at most 2 decimals, or null for none',
    'banners[0].image must be a URL or path',
    'banners[0].html is required ({th, la, en})',
    'nothing was written',
  ]);
  expect(await run('invite', 'set', file('array.json', [1]))).toBe(2);
  expect(err).toEqual(['the file must hold a JSON object', 'nothing was written']);
  expect((await readInviteSettings(t.db.db)).percent).toBe(7.5);
  await run('invite', 'set', file('reset.json', { percent: 5, cap: null, banners: [] }));
});

test('the demo seed: an active wheel of 8 slices and invites on with a banner, written once, an operator change kept', async () => {
  await t.db.db.deleteFrom('settings').where('key', 'in', ['spinwheel', 'invite']).execute();
  const demo = await seedDemo(t.db.db);
  const headers = { authorization: `Bearer ${await t.app.tokens.issue(demo.id)}` };
  const setup = (await t.app.inject({ method: 'GET', url: '/api/spinwheel/setup', headers })).json().result.activeSpinwheel;
  expect(setup.slices).toHaveLength(8);
  expect(setup.name.en).toBe('Lucky wheel');
  expect(parseWheel(DEMO_WHEEL).ok).toBe(true);
  const types = DEMO_WHEEL.slices.map((s) => s.prize.type).sort();
  expect(new Set(types)).toEqual(new Set(['cash', 'coin', 'none']));
  expect((await t.app.inject({ method: 'GET', url: '/api/invite/banners', headers })).json().banners).toHaveLength(1);
  expect(fs.existsSync(path.join(__dirname, '../../../public/games/banner-invite.svg'))).toBe(true);

  await run('wheel', 'off');
  await run('invite', 'off');
  await seedDemo(t.db.db);
  expect((await t.app.inject({ method: 'GET', url: '/api/spinwheel/active', headers })).json()).toEqual({ isActive: false });
  expect((await readInviteSettings(t.db.db)).isActive).toBe(false);
});
