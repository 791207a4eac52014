/**
 * A small seedable PRNG (mulberry32) for the simulator's fault injection and latency jitter, so a test that
 * fixes the seed sees the same failures every run. Not for anything a player could exploit: game rounds and
 * passwords use node:crypto.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
