import { randomInt } from 'node:crypto';

/**
 * A uniform whole number in [0, maxExclusive). The server draws with node:crypto's randomInt (a CSPRNG, without
 * modulo bias); tests inject a seeded generator through the wheel plugin's options, production never does.
 */
export type RandomInt = (maxExclusive: number) => number;

export const cryptoRandomInt: RandomInt = (maxExclusive) => randomInt(maxExclusive);

/**
 * Draws one slice with probability weight / total: a uniform r in [0, total) falls in exactly one slice's run
 * of `weight` consecutive numbers, in wheel order.
 */
export function drawSlice<T extends { weight: number }>(slices: readonly T[], random: RandomInt): T {
  const total = slices.reduce((s, x) => s + x.weight, 0);
  if (!slices.length || !Number.isSafeInteger(total) || total <= 0) throw new Error('a draw needs slices with positive whole weights');
  const r = random(total);
  if (!Number.isInteger(r) || r < 0 || r >= total) throw new Error(`the random source answered ${r} for [0, ${total})`);
  let acc = 0;
  for (const s of slices) {
    acc += s.weight;
    if (r < acc) return s;
  }
  throw new Error('unreachable: r < total');
}
