/**
 * Money on the deposit wire: JSON numbers (or decimal strings) in baht with at most 2 decimals;
 * inside, integer satang. Parsing goes through the decimal text so 100.1 is 10010 satang, never 10009.
 */
const DECIMAL = /^(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/;

/** Baht (number or decimal string) to satang, or null when it is not a non-negative amount with <= 2 decimals. */
export function toSatang(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    // String(n) is the shortest text that round-trips, so 100.1 reads as "100.1", not its binary expansion.
    text = String(value);
    if (/e/i.test(text)) return null;
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const satang = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(satang) ? satang : null;
}

/** Satang to the JSON number of baht the wire carries (exact for every amount we hold). */
export const toBaht = (satang: number): number => satang / 100;

/** Satang as the fixed two-decimal text EMVCo tag 54 and receipts carry: 10050 -> "100.50". */
export function formatBaht(satang: number): string {
  const sign = satang < 0 ? '-' : '';
  const abs = Math.abs(satang);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
