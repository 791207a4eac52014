import { formatDateTimeMinutes, parseDate, type DateInput } from '../../lib/format';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * When the home balance was read, as a clock time (issue 40 item 11): "0 seconds ago" for half a minute read as
 * stale or broken, and a clock time never needs to tick. HH:mm when read today (local time), else the date too.
 */
export function syncTime(lastSync: DateInput, now: DateInput = Date.now()): string {
  const read = parseDate(lastSync);
  const today = parseDate(now);
  if (!read) return '-';
  const sameDay = today !== null && read.getFullYear() === today.getFullYear() && read.getMonth() === today.getMonth() && read.getDate() === today.getDate();
  return sameDay ? `${pad(read.getHours())}:${pad(read.getMinutes())}` : formatDateTimeMinutes(read);
}
