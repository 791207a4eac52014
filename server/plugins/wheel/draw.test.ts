import { drawSlice, type RandomInt } from './draw';
import { activeWheel, parseWheel, writeWheel, type WheelSlice } from './config';
import { DEMO_WHEEL } from '../../demo/wheel';
import { buildInviteWheelTestApp, seeded, testSlice, type InviteWheelTestApp } from '../../test/support/wheel';

/**
 * The draw follows the configured weights (RULES.md "Refund, invite, wheel": the server draws by weights). The
 * test's own randomness is a seeded generator (mulberry32), so every run sees the same numbers and the verdict
 * never changes by chance; the server's source stays node:crypto randomInt (wheel.test.ts checks the default).
 * A chi-square goodness-of-fit test over at least 10,000 draws must accept the weights at p = 0.001, and must
 * reject weights the draws do not follow (so the test has the power to notice a wrong mapping).
 */
jest.setTimeout(120_000);

/** Upper 0.1% points of the chi-square distribution (scipy.stats.chi2.ppf(0.999, df)), by degrees of freedom. */
const CRITICAL_P001: Record<number, number> = { 7: 24.322, 15: 37.697 };

function chiSquare(counts: number[], weights: number[]): number {
  const n = counts.reduce((s, c) => s + c, 0);
  const total = weights.reduce((s, w) => s + w, 0);
  return counts.reduce((s, c, i) => {
    const expected = (n * weights[i]) / total;
    return s + (c - expected) ** 2 / expected;
  }, 0);
}

function draws(slices: readonly WheelSlice[], random: RandomInt, n: number): number[] {
  const counts = slices.map(() => 0);
  const index = new Map(slices.map((s, i) => [s, i]));
  for (let i = 0; i < n; i += 1) counts[index.get(drawSlice(slices, random))!] += 1;
  return counts;
}

const demoSlices = () => {
  const parsed = parseWheel(DEMO_WHEEL);
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.wheel.slices;
};

describe('drawSlice', () => {
  test('maps each whole number of [0, total) to the slice whose run of `weight` numbers holds it, in wheel order', () => {
    const slices = [{ weight: 3, c: 'a' }, { weight: 1, c: 'b' }, { weight: 2, c: 'c' }];
    const at = (r: number) => drawSlice(slices, (max) => (expect(max).toBe(6), r)).c;
    expect([0, 1, 2, 3, 4, 5].map(at)).toEqual(['a', 'a', 'a', 'b', 'c', 'c']);
  });

  test('refuses a source answering outside [0, total), and slices without weight', () => {
    const slices = [{ weight: 2 }, { weight: 2 }];
    for (const r of [-1, 4, 1.5, Number.NaN]) expect(() => drawSlice(slices, () => r)).toThrow(/random source/);
    expect(() => drawSlice([], () => 0)).toThrow();
    expect(() => drawSlice([{ weight: 0 }], () => 0)).toThrow();
  });
});

describe('chi-square over the configured weights (p = 0.001)', () => {
  test('the demo wheel (8 slices, df 7): 20,000 draws accept its weights and reject equal weights', () => {
    const slices = demoSlices();
    const weights = slices.map((s) => s.weight);
    const counts = draws(slices, seeded(20261126), 20_000);
    const stat = chiSquare(counts, weights);
    console.log(`demo wheel: counts ${counts.join(' ')} for weights ${weights.join(' ')}, chi-square ${stat.toFixed(2)} (df 7, critical ${CRITICAL_P001[7]})`);
    expect(stat).toBeLessThan(CRITICAL_P001[7]);
    expect(chiSquare(counts, weights.map(() => 1))).toBeGreaterThan(CRITICAL_P001[7]);
  });

  test('a wheel of 16 slices weighted 1 to 16 (df 15): 50,000 draws accept them and reject the reversed order', () => {
    const slices = Array.from({ length: 16 }, (_, i) => ({ ...demoSlices()[0], code: `S${i}`, weight: i + 1 }));
    const counts = draws(slices, seeded(7), 50_000);
    const weights = slices.map((s) => s.weight);
    expect(chiSquare(counts, weights)).toBeLessThan(CRITICAL_P001[15]);
    expect(chiSquare(counts, [...weights].reverse())).toBeGreaterThan(CRITICAL_P001[15]);
  });

  test('the spin route draws exactly as drawSlice over the active slices of the stored wheel, for the same source', async () => {
    const t: InviteWheelTestApp = await buildInviteWheelTestApp();
    try {
      await writeWheel(t.db.db, demoSlicesWheel());
      const stored = (await activeWheel(t.db.db))!.slices;
      const n = 300;
      const p = await t.player({ coins: n });
      t.setRandom(seeded(99));
      const codes: string[] = [];
      for (let i = 0; i < n; i += 1) codes.push((await t.spin(p)).json().result.code);
      const mirror = seeded(99);
      expect(codes).toEqual(Array.from({ length: n }, () => drawSlice(stored, mirror).code));
      // An inactive slice is outside the draw: the stored wheel has 9 slices, the draw 8.
      expect(stored).toHaveLength(8);
      expect(new Set(codes).has('HIDDEN')).toBe(false);
      expect(await t.audit()).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

/** The demo wheel plus an inactive slice with a large weight, which must never be drawn. */
function demoSlicesWheel() {
  const parsed = parseWheel({ ...DEMO_WHEEL, slices: [...DEMO_WHEEL.slices, testSlice({ code: 'HIDDEN', weight: 1000, type: 'cash', amount: 1000, active: false })] });
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  return parsed.wheel;
}
