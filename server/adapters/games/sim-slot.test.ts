import { returnToPlayer, spin } from './sim-slot';
import { seededRandom } from './sim-rng';

test('the paytable returns exactly 1 - houseEdge per unit staked', () => {
  for (const edge of [0, 0.02, 0.04, 0.1, 0.5]) expect(returnToPlayer(edge)).toBeCloseTo(1 - edge, 12);
});

test('over many spins the payback converges on 1 - houseEdge, and only wins show three alike', () => {
  const random = seededRandom(2024);
  const n = 200_000;
  let paid = 0;
  let mismatched = 0;
  for (let i = 0; i < n; i++) {
    const o = spin(0.04, random);
    paid += o.multiplier;
    if ((new Set(o.symbols).size === 1) !== o.multiplier > 0) mismatched++;
  }
  expect(mismatched).toBe(0);
  expect(paid / n).toBeGreaterThan(0.93);
  expect(paid / n).toBeLessThan(0.99);
});

test('the default source of outcomes is the OS CSPRNG, in [0, 1)', () => {
  for (let i = 0; i < 1000; i++) {
    const o = spin(0.04);
    expect([0, 2, 5, 20]).toContain(o.multiplier);
  }
});
