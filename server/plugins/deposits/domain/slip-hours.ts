/**
 * Daily closed hours for slip uploads (RULES.md "Slips": upload closed hours come from the slip lookup).
 * Times are HH:mm on the Asia/Bangkok wall clock; a window may wrap past midnight (23:50-00:10).
 * The start is inclusive and the end exclusive.
 */
export const SLIP_TIME_ZONE = 'Asia/Bangkok';

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function isValidHhmm(v: string): boolean {
  return HHMM.test(v);
}

function minutes(hhmm: string): number {
  const m = HHMM.exec(hhmm);
  if (!m) throw new Error(`not an HH:mm time: ${hhmm}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Minutes since midnight on the wall clock of `timeZone`. */
export function wallClockMinutes(now: Date, timeZone = SLIP_TIME_ZONE): number {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).formatToParts(now);
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  return get('hour') * 60 + get('minute');
}

export function isInClosedHours(closeFrom: string | null, closeTo: string | null, now: Date, timeZone = SLIP_TIME_ZONE): boolean {
  if (!closeFrom || !closeTo) return false;
  const from = minutes(closeFrom);
  const to = minutes(closeTo);
  if (from === to) return false;
  const t = wallClockMinutes(now, timeZone);
  return from < to ? t >= from && t < to : t >= from || t < to;
}
