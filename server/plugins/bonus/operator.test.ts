import { USAGE } from '../../cli/operator-cli';
import { operatorSession } from '../../test/support/operator';
import { seedDemo } from '../../demo/index';
import { buildBonusTestApp, satang, type BonusTestApp } from '../../test/support/bonus';

/**
 * Operators define bonuses, promotion codes and refund settings with `npm run operator -- ...` from JSON files;
 * the demo seed has a bonus of each type, two promotion codes and refunds on. Through runOperator, the CLI's own
 * entry, on the test database; the API shows each change at once.
 */
let t: BonusTestApp;
const { run, file, missing, out, err, cleanup } = operatorSession(() => ({ db: t.db.db, config: t.app.config }));
const L = (s: string) => ({ th: `${s} th`, la: `${s} la`, en: `${s} en` });

beforeAll(async () => {
  t = await buildBonusTestApp();
});
afterAll(async () => {
  cleanup();
  await t.close();
});

test('the usage lists the bonus, promotion and refund commands', async () => {
  expect(USAGE).toMatch(/bonus add <file\.json>/);
  expect(USAGE).toMatch(/promotion add <file\.json>/);
  expect(USAGE).toMatch(/refund on\|off/);
  expect(await run('bonus', 'nonsense')).toBe(2);
  expect(err).toEqual([USAGE]);
});

test('bonus add reads one or many definitions; list, show and the API reflect them; show round-trips through add', async () => {
  const defs = [
    { code: 'op-daily', name: L('daily'), notice: L('notice'), type: 'day', maxReceived: 1, percent: 5, cap: 200, turnoverMultiple: 2, percentFail: 10, budget: 1000 },
    { code: 'OPWEEK', name: L('week'), notice: L('notice'), type: 'week', maxReceived: 2, percent: 12.5, cap: 1000, turnoverMultiple: 1.5, percentFail: 5 },
  ];
  expect(await run('bonus', 'add', file('bonuses.json', defs))).toBe(0);
  expect(out).toEqual(['OP-DAILY: added', 'OPWEEK: added']);
  expect(await run('bonus')).toBe(0);
  expect(out).toEqual([
    'OP-DAILY [on] day x1, 5% up to 200, turnover x2, fails at 10%, paid 0.00 of budget 1000',
    'OPWEEK [on] week x2, 12.5% up to 1000, turnover x1.5, fails at 5%, paid 0.00',
  ]);

  const p = await t.player({ balance: satang(1000) });
  const listed = (await t.get(p, '/api/bonus')).json().bonuses.map((b: { code: string; percent: number }) => [b.code, b.percent]);
  expect(listed).toEqual([['OP-DAILY', 5], ['OPWEEK', 12.5]]);
  expect((await t.get(p, '/api/bonus/activate/op-daily')).json()).toMatchObject({ amount: 50, startAmount: 1050, target: 2100 });
  await run('bonus');
  expect(out[0]).toBe('OP-DAILY [on] day x1, 5% up to 200, turnover x2, fails at 10%, paid 50.00 THB of budget 1000');

  expect(await run('bonus', 'show', 'opweek')).toBe(0);
  const shown = JSON.parse(out.join('\n'));
  expect(shown).toMatchObject({ code: 'OPWEEK', type: 'week', maxReceived: 2, percent: 12.5, turnoverMultiple: 1.5, budget: null, active: true });
  expect(await run('bonus', 'add', file('again.json', { ...shown, cap: 900 }))).toBe(0);
  expect(out).toEqual(['OPWEEK: updated']);
  expect((await t.get(p, '/api/bonus')).json().bonuses[1].cap).toBe(900);
});

test('a file that does not pass the checks writes nothing and says what is wrong', async () => {
  const bad = [
    { code: 'GOOD1', name: L('g'), notice: L('n'), type: 'limit', maxReceived: 1 },
    { code: 'bad code', name: L('b'), notice: L('n'), type: 'month', maxReceived: 0, percent: 10.555, cap: -1, extra: 1 },
  ];
  expect(await run('bonus', 'add', file('bad.json', bad))).toBe(2);
  expect(err).toEqual(
    expect.arrayContaining([
      'bad code: unknown fields: extra',
      'bad code: code must be 1-32 characters A-Z, 0-9, _ or - (case-insensitive)',
      'bad code: type must be limit, day or week',
      'bad code: maxReceived must be a whole number 1-1000',
      'bad code: percent must be between 0.01 and 1000 with at most 2 decimals, got 10.555',
      'nothing was written',
    ]),
  );
  expect(await t.db.db.selectFrom('bonus_definitions').select('code').where('code', '=', 'GOOD1').execute()).toEqual([]);
  expect(await run('bonus', 'add', file('broken.json', '{"code":'))).toBe(2);
  expect(err[0]).toMatch(/is not JSON/);
  expect(await run('bonus', 'add', missing('missing.json'))).toBe(2);
  expect(err[0]).toMatch(/cannot read/);
  // A promotion code cannot take a bonus's code.
  expect(await run('promotion', 'add', file('clash.json', { code: 'OPWEEK', description: L('d') }))).toBe(2);
  expect(err[0]).toMatch(/OPWEEK: that code is a bonus already/);
});

test('disable stops offering a bonus (activation answers NO_DATA), enable brings it back; unknown codes exit 1', async () => {
  await run('bonus', 'add', file('sw.json', { code: 'OPSWITCH', name: L('s'), notice: L('n'), type: 'limit', maxReceived: 1 }));
  const p = await t.player({ balance: satang(100) });
  expect(await run('bonus', 'disable', 'opswitch')).toBe(0);
  expect(out).toEqual(['OPSWITCH: off']);
  expect((await t.get(p, '/api/bonus')).json().bonuses.map((b: { code: string }) => b.code)).not.toContain('OPSWITCH');
  expect((await t.get(p, '/api/bonus/activate/OPSWITCH')).json()).toEqual({ message: 'NO_DATA' });
  expect(await run('bonus', 'enable', 'OPSWITCH')).toBe(0);
  expect((await t.get(p, '/api/bonus/activate/OPSWITCH')).statusCode).toBe(200);
  expect(await run('bonus', 'disable', 'NOPE')).toBe(1);
  expect(err).toEqual(['no bonus NOPE']);
});

test('promotion add, list, disable; validity dates and budget', async () => {
  const promo = { code: 'opcode', description: L('promo'), percent: 20, cap: 100, percentFail: 15, budget: 500, validFrom: '2020-01-01', validTo: '2999-12-31T17:00:00Z' };
  expect(await run('promotion', 'add', file('promo.json', promo))).toBe(0);
  expect(await run('promotion')).toBe(0);
  expect(out).toEqual(['OPCODE [on] 20% up to 100, turnover x3, fails at 15%, paid 0.00 of budget 500, valid 2020-01-01T00:00:00.000Z to 2999-12-31T17:00:00.000Z']);
  const p = await t.player({ balance: satang(100) });
  expect((await t.get(p, '/api/promotion/find/OpCode')).json()).toEqual({ code: 'OPCODE', percentFail: 15, description: L('promo') });
  expect(await run('promotion', 'disable', 'OPCODE')).toBe(0);
  expect((await t.get(p, '/api/promotion/find/OPCODE')).json()).toEqual({ message: 'NO_PROMOTION' });
  expect(await run('promotion', 'add', file('p2.json', { ...promo, type: 'day' }))).toBe(2);
  expect(err[0]).toMatch(/received once per player/);
});

test('bonus settings: the minimum and the time zone', async () => {
  const p = await t.player({ balance: satang(30) });
  await run('bonus', 'add', file('min.json', { code: 'OPMIN', name: L('m'), notice: L('n'), type: 'limit', maxReceived: 1 }));
  expect(await run('bonus', 'settings', file('rules.json', { minimum: 50 }))).toBe(0);
  expect(JSON.parse(out.join('\n'))).toEqual({ minimum: 50, timeZone: 'Asia/Bangkok' });
  expect((await t.get(p, '/api/bonus/check/minimum')).json()).toEqual({ minimum: 50 });
  expect((await t.get(p, '/api/bonus/activate/OPMIN')).json()).toEqual({ message: 'BONUS_REMAINING' });
  expect(await run('bonus', 'settings', file('tz.json', { timeZone: 'Mars/Olympus' }))).toBe(2);
  expect(err).toEqual(['timeZone must be an IANA time zone such as Asia/Bangkok']);
  expect(await run('bonus', 'settings', file('back.json', { minimum: 1, timeZone: 'Asia/Vientiane' }))).toBe(0);
  expect(await run('bonus', 'settings')).toBe(0);
  expect(JSON.parse(out.join('\n'))).toEqual({ minimum: 1, timeZone: 'Asia/Vientiane' });
  expect((await t.get(p, '/api/bonus/activate/OPMIN')).statusCode).toBe(200);
});

test('refund on, off and set', async () => {
  const p = await t.player();
  expect(await run('refund')).toBe(0);
  expect(JSON.parse(out.join('\n'))).toMatchObject({ isActive: false, refundSuccess: 5, refundFail: 10 });
  expect((await t.get(p, '/api/refund/receive')).json()).toEqual({ message: 'REFUND_INACTIVE' });
  expect(await run('refund', 'on')).toBe(0);
  expect((await t.get(p, '/api/refund/receive')).json()).toEqual({ message: 'REFUND_MINIMUM' });
  const banners = [{ image: '/games/banner-refund.svg', html: L('b') }];
  expect(await run('refund', 'set', file('refund.json', { refundSuccess: 3, refundFail: 7.5, banners }))).toBe(0);
  expect((await t.get(p, '/api/refund/check')).json()).toMatchObject({ refundSuccess: 3, refundFail: 7.5 });
  expect((await t.get(p, '/api/refund/banners')).json()).toEqual({ banners });
  expect(await run('refund', 'set', file('bad-refund.json', { refundSuccess: 101, isActive: 'yes' }))).toBe(2);
  expect(err).toEqual(['isActive must be true or false', 'refundSuccess must be a percentage 0-100 with at most 2 decimals', 'nothing was written']);
  expect(await run('refund', 'off')).toBe(0);
  expect((await t.get(p, '/api/refund/banners')).json()).toEqual({ banners: [] });
});

test('the demo seed: a bonus of each type, WELCOME50 and LUCKY, refunds on, banners served; seeding again changes nothing', async () => {
  await t.db.db.deleteFrom('settings').where('key', 'in', ['refund', 'bonus']).execute();
  const demo = await seedDemo(t.db.db);
  await seedDemo(t.db.db);
  const headers = { authorization: `Bearer ${await t.app.tokens.issue(demo.id)}` };
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers });
  const bonuses = (await get('/api/bonus')).json().bonuses as { code: string; type: string; banners: { image: string }[] }[];
  const demoBonuses = bonuses.filter((b) => ['FIRST10', 'DAILY5', 'WEEKLY15'].includes(b.code));
  expect(demoBonuses.map((b) => b.type).sort()).toEqual(['day', 'limit', 'week']);
  for (const c of ['welcome50', 'lucky']) expect((await get(`/api/promotion/find/${c}`)).statusCode).toBe(200);
  const refund = (await get('/api/refund/banners')).json().banners as { image: string }[];
  expect(refund).toHaveLength(1);
  for (const image of [...demoBonuses.flatMap((b) => b.banners.map((x) => x.image)), refund[0].image]) {
    const res = await t.app.inject({ method: 'GET', url: image });
    expect([image, res.statusCode, res.headers['content-type']]).toEqual([image, 200, 'image/svg+xml']);
  }
  expect((await get('/api/refund/check')).json()).toMatchObject({ refundSuccess: 5, refundFail: 10 });
  const w = await get('/api/promotion/activate/WELCOME50');
  expect(w.json()).toMatchObject({ code: 'WELCOME50', kind: 'promotion', amount: 300 });
  expect(await t.audit()).toEqual([]);
});
