/**
 * Calendar windows in the operator's time zone (Asia/Bangkok by default), for the day and week receive limits:
 * a day starts at local midnight, a week on Monday at local midnight (ISO week). Any IANA zone works, daylight
 * saving included: the start is found by correcting the zone's offset at the candidate instant.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(tz: string): Intl.DateTimeFormat {
  let f = formatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(tz, f);
  }
  return f;
}

/** The wall-clock fields in the zone at an instant. */
function localFields(at: number, tz: string) {
  const parts = Object.fromEntries(formatter(tz).formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  return { y: Number(parts.year), m: Number(parts.month), d: Number(parts.day), h: Number(parts.hour), mi: Number(parts.minute), s: Number(parts.second) };
}

/** The zone's offset from UTC at an instant, ms (Bangkok: +7 h). */
function offsetAt(at: number, tz: string): number {
  const f = localFields(at, tz);
  const wall = Date.UTC(f.y, f.m - 1, f.d, f.h, f.mi, f.s);
  return wall - (at - (((at % 1000) + 1000) % 1000));
}

/** The instant at which the local date y-m-d begins in the zone. */
function startOfLocalDate(y: number, m: number, d: number, tz: string): Date {
  const wall = Date.UTC(y, m - 1, d);
  let t = wall - offsetAt(wall, tz);
  t = wall - offsetAt(t, tz);
  return new Date(t);
}

/** When the current calendar day began in the zone. */
export function startOfDay(now: Date, tz: string): Date {
  const f = localFields(now.getTime(), tz);
  return startOfLocalDate(f.y, f.m, f.d, tz);
}

/** When the current ISO week (Monday first) began in the zone. */
export function startOfWeek(now: Date, tz: string): Date {
  const f = localFields(now.getTime(), tz);
  const weekday = new Date(Date.UTC(f.y, f.m - 1, f.d)).getUTCDay(); // 0 Sunday .. 6 Saturday
  const back = (weekday + 6) % 7;
  const monday = new Date(Date.UTC(f.y, f.m - 1, f.d - back));
  return startOfLocalDate(monday.getUTCFullYear(), monday.getUTCMonth() + 1, monday.getUTCDate(), tz);
}

/** Since when received bonuses count against maxReceived: ever (limit), today, or this week. */
export function windowStart(type: 'limit' | 'day' | 'week', now: Date, tz: string): Date | null {
  if (type === 'day') return startOfDay(now, tz);
  if (type === 'week') return startOfWeek(now, tz);
  return null;
}
