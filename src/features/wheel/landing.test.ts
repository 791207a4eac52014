import { easeOut, landingIndex, landingRotation, MAX_LANDING_OFFSET, sliceAtPointer, spinPlan } from './landing';

/** The wheel angle under the pointer (top) after turning `rotation` clockwise, computed apart from the code under test. */
const underPointer = (rotation: number) => {
  const a = -rotation % 360;
  return a < 0 ? a + 360 : a;
};

describe('landing angle', () => {
  const starts = [0, 17.3, 90, 359.99, 1234.5, 7 * 360 + 200];
  const offsets = [-0.5, -MAX_LANDING_OFFSET, -0.1, 0, 0.25, MAX_LANDING_OFFSET, 0.5, Number.NaN];

  it('the pointer ends inside the prize slice for every slice count from 2 to 16', () => {
    const misses: string[] = [];
    for (let count = 2; count <= 16; count += 1) {
      const size = 360 / count;
      // Inside the sector, and not on its border lines (at least 10% of the slice away).
      const margin = 0.1 * size - 1e-9;
      for (let index = 0; index < count; index += 1) {
        for (const from of starts) {
          for (const offset of offsets) {
            for (const extraTurns of [2, 3]) {
              const stop = landingRotation({ from, index, count, extraTurns, offset });
              const angle = underPointer(stop);
              const inside = angle >= index * size + margin && angle <= (index + 1) * size - margin;
              // Forward only: the extra turns, then less than one more turn.
              const forward = stop - from >= extraTurns * 360 && stop - from < (extraTurns + 1) * 360;
              if (!inside || !forward || sliceAtPointer(stop, count) !== index) misses.push(`${count} slices, #${index}, from ${from}, offset ${offset}: ${stop}`);
            }
          }
        }
      }
    }
    expect(misses).toEqual([]);
  });

  it('stops in the middle of the slice without an offset', () => {
    // 8 slices of 45°: slice 0 spans 0..45 from the top, its middle at 22.5, so the wheel turns 337.5 past whole turns.
    expect(landingRotation({ from: 0, index: 0, count: 8, extraTurns: 2 })).toBeCloseTo(720 + 337.5);
    expect(landingRotation({ from: 0, index: 2, count: 8, extraTurns: 3 })).toBeCloseTo(1080 + 247.5);
    // From a stop, on from there.
    expect(landingRotation({ from: 1057.5, index: 2, count: 8, extraTurns: 2 })).toBeCloseTo(1057.5 + 720 + 270);
  });

  it('reads the slice under the pointer', () => {
    expect(sliceAtPointer(0, 4)).toBe(0);
    expect(sliceAtPointer(-10, 4)).toBe(0);
    expect(sliceAtPointer(10, 4)).toBe(3);
    expect(sliceAtPointer(360 + 100, 4)).toBe(2);
  });

  it('finds the slice of a prize code, or -1', () => {
    const slices = [{ code: 'A' }, { code: 'B' }, { code: 'C' }];
    expect(landingIndex(slices, 'C')).toBe(2);
    expect(landingIndex(slices, 'Z')).toBe(-1);
  });
});

describe('spin plan (spec §9, issue 40 item 11: about 4 to 5 s in all, with 2 or 3 extra turns)', () => {
  const fixed = (...values: number[]) => {
    let i = 0;
    return () => values[i++ % values.length];
  };

  it('2 turns in 4 s at the low end, 3 turns in nearly 5 s at the high end', () => {
    expect(spinPlan(fixed(0, 0, 0.5))).toEqual({ extraTurns: 2, durationMs: 4000, offset: 0 });
    const high = spinPlan(fixed(0.99, 0.999, 0.999));
    expect(high.extraTurns).toBe(3);
    expect(high.durationMs).toBe(4999);
    expect(high.offset).toBeLessThanOrEqual(MAX_LANDING_OFFSET);
  });

  it('always 4 to 5 s in all, whether 2 or 3 turns', () => {
    for (let i = 0; i < 200; i += 1) {
      const plan = spinPlan();
      expect([2, 3]).toContain(plan.extraTurns);
      expect(plan.durationMs).toBeGreaterThanOrEqual(4000);
      expect(plan.durationMs).toBeLessThanOrEqual(5000);
      expect(Math.abs(plan.offset)).toBeLessThanOrEqual(MAX_LANDING_OFFSET);
    }
  });

  it('eases out: starts at 0, ends exactly at 1, never past it', () => {
    expect(easeOut(0)).toBe(0);
    expect(easeOut(1)).toBe(1);
    expect(easeOut(2)).toBe(1);
    expect(easeOut(0.5)).toBeCloseTo(0.875);
  });
});
