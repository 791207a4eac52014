import { writeSettingDoc } from '../../settings';
import { parseWheel } from './config';
import { DEMO_WHEEL } from '../../demo/wheel';
import { buildInviteWheelTestApp, testSlice, type InviteWheelTestApp } from '../../test/support/wheel';

/** Issue 40 item 13: the wheel's slice labels per language, `label` kept as the spec's wire field. */
jest.setTimeout(60_000);

let t: InviteWheelTestApp;
beforeAll(async () => {
  t = await buildInviteWheelTestApp();
});
afterAll(() => t.close());

const COIN = { th: '+2 เหรียญ', la: '+2 ຫຼຽນ', en: '+2 coins' };
const file = () => ({
  isActive: true,
  name: { th: 'วงล้อ', la: 'ວົງລໍ້', en: 'Wheel' },
  slices: [
    { ...testSlice({ code: 'COIN2', weight: 1, type: 'coin', amount: 2 }), label: '+2 COIN', labels: COIN },
    testSlice({ code: 'NOTHING', weight: 1, type: 'none' }),
  ],
});

test('setup and spin carry each slice label in th, la and en; a slice without labels has its label in every language', async () => {
  await writeSettingDoc(t.db.db, 'spinwheel', file());
  const p = await t.player({ coins: 1 });
  const slices = (await t.get(p, '/api/spinwheel/setup')).json().result.activeSpinwheel.slices as { code: string; label: string; labels: unknown }[];
  expect(slices.map((s) => [s.code, s.label, s.labels])).toEqual([
    ['COIN2', '+2 COIN', COIN],
    ['NOTHING', 'NOTHING label', { th: 'NOTHING label', la: 'NOTHING label', en: 'NOTHING label' }],
  ]);
  t.setRandom(() => 0);
  expect((await t.spin(p)).json().result).toMatchObject({ code: 'COIN2', label: '+2 COIN', labels: COIN });
  expect(await t.audit()).toEqual([]);
});

test('labels are checked like the other texts: all three languages, 1-32 characters each', () => {
  const bad = file();
  (bad.slices[0] as { labels: unknown }).labels = { th: '+2 เหรียญ', en: 'x'.repeat(33) };
  const parsed = parseWheel(bad);
  expect(parsed.ok).toBe(false);
  expect(parsed.ok ? [] : parsed.errors).toEqual(expect.arrayContaining([expect.stringContaining('slices[0].labels.la'), expect.stringContaining('slices[0].labels.en')]));
});

test('the demo wheel names its coin slices in each language, never the English "COIN" in Thai or Lao', () => {
  const parsed = parseWheel(DEMO_WHEEL);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  for (const s of parsed.wheel.slices) for (const lang of ['th', 'la'] as const) expect([s.code, lang, s.labels[lang]]).not.toEqual([s.code, lang, expect.stringMatching(/COIN/i)]);
  expect(parsed.wheel.slices.find((s) => s.code === 'COIN1')?.labels).toEqual({ th: '+1 เหรียญ', la: '+1 ຫຼຽນ', en: '+1 coin' });
});
