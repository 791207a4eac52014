import { isInClosedHours, isValidHhmm, wallClockMinutes } from './slip-hours';

// Bangkok is UTC+7 all year (no daylight saving), so 16:50Z is 23:50 there.
const at = (iso: string) => new Date(iso);

test('the wall clock is read in Asia/Bangkok, not in UTC or the server zone', () => {
  expect(wallClockMinutes(at('2026-01-01T16:50:00Z'))).toBe(23 * 60 + 50);
  expect(wallClockMinutes(at('2026-01-01T17:05:00Z'))).toBe(5);
});

test.each([
  // [closeFrom, closeTo, instant (UTC), closed?]
  ['23:50', '00:10', '2026-01-01T16:49:00Z', false], // 23:49
  ['23:50', '00:10', '2026-01-01T16:50:00Z', true], // 23:50, start inclusive
  ['23:50', '00:10', '2026-01-01T17:09:00Z', true], // 00:09 next day
  ['23:50', '00:10', '2026-01-01T17:10:00Z', false], // 00:10, end exclusive
  ['02:00', '04:30', '2026-01-01T20:00:00Z', true], // 03:00
  ['02:00', '04:30', '2026-01-01T21:30:00Z', false], // 04:30
  ['02:00', '04:30', '2026-01-01T12:00:00Z', false], // 19:00
  ['05:00', '05:00', '2026-01-01T22:00:00Z', false], // empty window
])('window %s-%s at %s closed=%s', (from, to, iso, closed) => {
  expect(isInClosedHours(from, to, at(iso))).toBe(closed);
});

test('no window means never closed by the clock', () => {
  expect(isInClosedHours(null, '01:00', at('2026-01-01T17:30:00Z'))).toBe(false);
  expect(isInClosedHours(null, null, at('2026-01-01T17:30:00Z'))).toBe(false);
});

test('HH:mm validation', () => {
  expect(isValidHhmm('00:00')).toBe(true);
  expect(isValidHhmm('23:59')).toBe(true);
  expect(isValidHhmm('24:00')).toBe(false);
  expect(isValidHhmm('7:00')).toBe(false);
});
