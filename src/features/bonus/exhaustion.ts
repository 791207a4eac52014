import moment from 'moment';

import type { Bonus, BonusType, Received } from './bonusApi';

/**
 * The operator's time zone: day and week limits count in the operator's calendar, not the device's, so a
 * player abroad (or with a wrong clock zone) sees the same cards the server allows (docs/bonus.md).
 */
export const OPERATOR_TIME_ZONE = 'Asia/Bangkok';
/** Asia/Bangkok has had no daylight saving since 1920: +07:00 when the platform knows no time zones. */
const FALLBACK_OFFSET_MINUTES = 7 * 60;

/** One formatter per zone: building an Intl.DateTimeFormat is far dearer than using one. */
const zoneFormats = new Map<string, Intl.DateTimeFormat>();
function zoneFormat(zone: string): Intl.DateTimeFormat {
  let format = zoneFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    zoneFormats.set(zone, format);
  }
  return format;
}

/** The zone's offset from UTC at `at`, in minutes, from the platform's time zone data (Intl). */
export function zoneOffsetMinutes(at: number, zone: string = OPERATOR_TIME_ZONE): number {
  try {
    const parts = zoneFormat(zone).formatToParts(new Date(at));
    const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((part) => part.type === type)?.value);
    const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
    const offset = Math.round((wall - Math.floor(at / 1000) * 1000) / 60_000);
    return Number.isFinite(offset) ? offset : FALLBACK_OFFSET_MINUTES;
  } catch {
    return FALLBACK_OFFSET_MINUTES;
  }
}

/** The calendar period a type counts in, as [start, end] instants (ms) around `now` in the zone; null: all time. */
export function countingPeriod(type: BonusType, now: number, zone: string = OPERATOR_TIME_ZONE): [number, number] | null {
  if (type !== 'day' && type !== 'week') return null;
  const local = moment(now).utcOffset(zoneOffsetMinutes(now, zone));
  // ISO weeks start on Monday, as the server counts them.
  const unit = type === 'day' ? 'day' : 'isoWeek';
  return [local.clone().startOf(unit).valueOf(), local.clone().endOf(unit).valueOf()];
}

/** Spec §4: limit counts every receipt, day those of the current calendar day, week those of the current week. */
export function countReceived(type: BonusType, received: readonly Received[], now: number, zone: string = OPERATOR_TIME_ZONE): number {
  const period = countingPeriod(type, now, zone);
  if (!period) return received.length;
  const [start, end] = period;
  return received.filter(({ updatedAt }) => {
    const at = moment(updatedAt, moment.ISO_8601);
    return at.isValid() && at.valueOf() >= start && at.valueOf() <= end;
  }).length;
}

/** The card is exhausted when the count is at or above maxReceived (spec §4). */
export function isExhausted(bonus: Pick<Bonus, 'type' | 'maxReceived' | 'userBonus'>, now: number, zone: string = OPERATOR_TIME_ZONE): boolean {
  return countReceived(bonus.type, bonus.userBonus?.received ?? [], now, zone) >= bonus.maxReceived;
}

export type BonusCardState = 'active' | 'exhausted' | 'available';

/** Spec §4 bonus card states: the active one shows the current marker; an exhausted one cannot be clicked. */
export function selectBonusCardState(bonus: Pick<Bonus, 'type' | 'maxReceived' | 'userBonus'>, now: number, zone: string = OPERATOR_TIME_ZONE): BonusCardState {
  if (bonus.userBonus?.isActive) return 'active';
  return isExhausted(bonus, now, zone) ? 'exhausted' : 'available';
}
