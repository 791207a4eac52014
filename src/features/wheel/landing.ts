/**
 * Where the wheel stops. The setup lists the slices clockwise from the top, where the pointer is; the wheel
 * turns clockwise, so a rotation of R degrees brings the wheel's angle -R (mod 360) under the pointer.
 * Angles are degrees, clockwise from the top.
 */

/** How far from a slice's middle the wheel may stop, as a share of the slice: never on a border line. */
export const MAX_LANDING_OFFSET = 0.4;

/** The slice under the pointer when the wheel has turned `rotation` degrees clockwise. */
export function sliceAtPointer(rotation: number, count: number): number {
  const size = 360 / count;
  const underPointer = (((-rotation % 360) + 360) % 360);
  return Math.min(count - 1, Math.floor(underPointer / size));
}

interface Landing {
  /** Where the wheel stands now (degrees; it only ever grows). */
  from: number;
  /** The prize's slice (its place in the setup's list). */
  index: number;
  count: number;
  /** Whole turns before the landing (spec §9: 2 or 3). */
  extraTurns: number;
  /** Where in the slice to stop: -0.5 .. 0.5 of its width from the middle, clamped to MAX_LANDING_OFFSET. */
  offset?: number;
}

/**
 * The rotation at which the wheel stops with the pointer inside slice `index`: forward from `from`, the extra
 * whole turns, then on to the slice. Always more than `from`, so the wheel never turns back.
 */
export function landingRotation({ from, index, count, extraTurns, offset = 0 }: Landing): number {
  const size = 360 / count;
  const within = Math.max(-MAX_LANDING_OFFSET, Math.min(MAX_LANDING_OFFSET, Number.isFinite(offset) ? offset : 0));
  // The wheel angle that must come under the pointer, turned into the rotation that brings it there.
  const target = (((360 - (index + 0.5 + within) * size) % 360) + 360) % 360;
  const current = ((from % 360) + 360) % 360;
  const forward = (target - current + 360) % 360;
  return from + Math.max(1, Math.round(extraTurns)) * 360 + forward;
}

/** The slice of the returned prize code, or -1 when the wheel has no such slice. */
export function landingIndex(slices: readonly { code: string }[], code: string): number {
  return slices.findIndex((slice) => slice.code === code);
}

export interface SpinPlan {
  extraTurns: 2 | 3;
  durationMs: number;
  offset: number;
}

/**
 * Spec §9 as issue 40 item 11 reads it: the whole spin takes about 4 to 5 seconds, with 2 or 3 extra full turns
 * (the earlier reading, 4 to 5 s per turn, gave spins of 8 to 15 s that players found far too long).
 * `random` returns numbers in [0, 1) (Math.random in the app; the wheel is decoration, the server drew the prize).
 */
export function spinPlan(random: () => number = Math.random): SpinPlan {
  const extraTurns = random() < 0.5 ? 2 : 3;
  const seconds = 4 + random();
  return { extraTurns, durationMs: Math.round(seconds * 1000), offset: (random() - 0.5) * 2 * MAX_LANDING_OFFSET };
}

/** Fast at first, slowing to a stop (cubic ease-out); `t` from 0 to 1. */
export function easeOut(t: number): number {
  const clamped = Math.max(0, Math.min(1, t));
  return 1 - (1 - clamped) ** 3;
}
