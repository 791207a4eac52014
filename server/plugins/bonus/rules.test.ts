import { bonusAmount, definitionToInput, failThreshold, isOpen, normalizeCode, parseDefinition, turnoverTarget } from './definitions';
import { startOfDay, startOfWeek, windowStart } from './zone';
import { checkBonusRules, checkRefundSettings, refundInfo, DEFAULT_REFUND } from './settings';

/** The pure rules behind activation: amounts, targets, thresholds, codes, definitions and calendar windows. */

test('bonus amount: percent of the wallet rounded down to the satang, at most the cap; nothing for an empty wallet', () => {
  expect(bonusAmount(1000_00, 1000, 500_00)).toBe(100_00);
  expect(bonusAmount(10_000_00, 1000, 500_00)).toBe(500_00);
  expect(bonusAmount(333, 1000, 500_00)).toBe(33); // 3.33 baht -> 0.33
  expect(bonusAmount(9, 1000, 500_00)).toBe(0);
  expect(bonusAmount(0, 1000, 500_00)).toBe(0);
  expect(bonusAmount(-5, 1000, 500_00)).toBe(0);
  expect(bonusAmount(1000_00, 1250, 1_000_00)).toBe(125_00); // 12.5%
});

test('turnover target rounds up, the fail line rounds down', () => {
  expect(turnoverTarget(1100_00, 300)).toBe(3300_00);
  expect(turnoverTarget(101, 150)).toBe(152); // 151.5 -> 152
  expect(failThreshold(1100_00, 1000)).toBe(110_00);
  expect(failThreshold(105, 1000)).toBe(10); // 10.5 -> 10
  expect(failThreshold(1100_00, 0)).toBe(0);
});

test('codes are case-insensitive and limited to A-Z 0-9 _ -', () => {
  expect(normalizeCode(' welcome50 ')).toBe('WELCOME50');
  expect(normalizeCode('lucky-7_x')).toBe('LUCKY-7_X');
  for (const bad of ['', 'a b', 'ก', 'x'.repeat(33), 'a/b', 'a%']) expect(normalizeCode(bad)).toBeNull();
});

test('a definition is open when active and inside [validFrom, validTo)', () => {
  const d = { active: 1, valid_from: '2030-01-01T00:00:00.000Z', valid_to: '2030-02-01T00:00:00.000Z' };
  expect(isOpen(d, '2029-12-31T23:59:59.999Z')).toBe(false);
  expect(isOpen(d, '2030-01-01T00:00:00.000Z')).toBe(true);
  expect(isOpen(d, '2030-02-01T00:00:00.000Z')).toBe(false);
  expect(isOpen({ ...d, active: 0 }, '2030-01-15T00:00:00.000Z')).toBe(false);
  expect(isOpen({ active: 1, valid_from: null, valid_to: null }, '2030-01-15T00:00:00.000Z')).toBe(true);
});

test('parseDefinition applies the defaults of RULES.md and round-trips through definitionToInput', () => {
  const L = { th: 'ท', la: 'ລ', en: 'e' };
  const parsed = parseDefinition({ code: 'abc', name: L, notice: L, type: 'week', maxReceived: 3 }, 'bonus');
  if (!parsed.ok) throw new Error(parsed.errors.join());
  expect(parsed.row).toMatchObject({ code: 'ABC', kind: 'bonus', type: 'week', max_received: 3, percent_bp: 1000, cap: 500_00, turnover_x100: 300, percent_fail_bp: 1000, budget: null, active: 1 });
  const back = definitionToInput({ ...parsed.row, created_at: '', updated_at: '' });
  expect(back).toMatchObject({ code: 'ABC', percent: 10, cap: 500, turnoverMultiple: 3, percentFail: 10, budget: null, type: 'week', maxReceived: 3 });
  const again = parseDefinition(back, 'bonus');
  expect(again.ok && again.row).toEqual(parsed.row);

  const promo = parseDefinition({ code: 'p1', description: L, budget: 1000.5 }, 'promotion');
  expect(promo.ok && promo.row).toMatchObject({ code: 'P1', kind: 'promotion', type: 'limit', max_received: 1, budget: 1000_50 });
  expect(parseDefinition({ code: 'p1', notice: L }, 'promotion')).toEqual({ ok: false, errors: expect.arrayContaining(['description is required ({th, la, en})']) });
  expect(parseDefinition({ code: 'B', name: { th: 'x' }, notice: L, type: 'day', maxReceived: 1 }, 'bonus')).toEqual({
    ok: false,
    errors: ['name.la must be a non-empty string', 'name.en must be a non-empty string'],
  });
  expect(parseDefinition({ code: 'B', name: L, notice: L, type: 'day', maxReceived: 1, validFrom: '2030-02-01', validTo: '2030-01-01' }, 'bonus')).toEqual({
    ok: false,
    errors: ['validTo must be after validFrom'],
  });
  expect(parseDefinition([], 'bonus')).toEqual({ ok: false, errors: ['a definition must be a JSON object'] });
});

describe('calendar windows', () => {
  test('Bangkok (UTC+7): the day starts at 17:00 UTC the day before, the week on Monday', () => {
    expect(startOfDay(new Date('2031-03-05T16:59:59.999Z'), 'Asia/Bangkok').toISOString()).toBe('2031-03-04T17:00:00.000Z');
    expect(startOfDay(new Date('2031-03-05T17:00:00.000Z'), 'Asia/Bangkok').toISOString()).toBe('2031-03-05T17:00:00.000Z');
    // Wednesday 5 March 2031 in Bangkok -> Monday 3 March 00:00 Bangkok
    expect(startOfWeek(new Date('2031-03-05T05:00:00.000Z'), 'Asia/Bangkok').toISOString()).toBe('2031-03-02T17:00:00.000Z');
    // Sunday 9 March 23:59 Bangkok still belongs to that week; Monday 00:00 starts the next
    expect(startOfWeek(new Date('2031-03-09T16:59:00.000Z'), 'Asia/Bangkok').toISOString()).toBe('2031-03-02T17:00:00.000Z');
    expect(startOfWeek(new Date('2031-03-09T17:00:00.000Z'), 'Asia/Bangkok').toISOString()).toBe('2031-03-09T17:00:00.000Z');
    // A week across a month and a year end
    expect(startOfWeek(new Date('2031-01-01T03:00:00.000Z'), 'Asia/Bangkok').toISOString()).toBe('2030-12-29T17:00:00.000Z');
  });

  test('a zone with daylight saving finds local midnight on both sides of the change', () => {
    // Berlin moves to UTC+2 on 30 March 2031 at 01:00 UTC.
    expect(startOfDay(new Date('2031-03-30T12:00:00.000Z'), 'Europe/Berlin').toISOString()).toBe('2031-03-29T23:00:00.000Z');
    expect(startOfDay(new Date('2031-03-31T12:00:00.000Z'), 'Europe/Berlin').toISOString()).toBe('2031-03-30T22:00:00.000Z');
    expect(startOfWeek(new Date('2031-04-02T12:00:00.000Z'), 'Europe/Berlin').toISOString()).toBe('2031-03-30T22:00:00.000Z');
  });

  test('limit counts every receipt', () => {
    expect(windowStart('limit', new Date(), 'Asia/Bangkok')).toBeNull();
  });
});

test('settings documents are checked; the refund info fills in its percentages', () => {
  expect(checkBonusRules({ minimum: 0 })).toEqual(['minimum must be an amount above 0 baht with at most 2 decimals']);
  expect(checkBonusRules({ minimum: 10, timeZone: 'Asia/Vientiane' })).toEqual([]);
  expect(checkRefundSettings({ banners: [{ image: 1 }], extra: true })).toEqual(['unknown fields: extra', 'banners must be [{image, html: {th, la, en}}]']);
  expect(refundInfo({ ...DEFAULT_REFUND, refundSuccess: 3, refundFail: 7.5 }).en).toBe('<p>Get back 3% of your net loss, or 7.5% when a bonus failed in that period.</p>');
});
