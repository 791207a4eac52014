/**
 * Money on the wire is baht (major units, at most 2 decimals); in the database and in every calculation it is
 * integer satang. Parsing goes through the decimal text, never through float arithmetic.
 */

/** Parses "12.34", 12.34 or 12 into satang (1234). Returns null for anything that is not a non-negative amount with at most 2 decimals. */
export function parseBaht(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value); // shortest round-trip text: 12.34 -> "12.34", 1e21 -> "1e+21" (refused below)
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const m = /^(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/.exec(text); // no leading zeros, no exponent
  if (!m) return null;
  const satang = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(satang) ? satang : null;
}

/**
 * An amount as it arrives in a JSON body or a webhook: a JSON number only (amounts on the wire are JSON numbers),
 * so "5" and " 5 " are refused like any other malformed amount. parseBaht also reads settings and form text.
 */
export function parseWireBaht(value: unknown): number | null {
  return typeof value === 'number' ? parseBaht(value) : null;
}

/** Satang to baht for JSON: 1234 -> 12.34 (the nearest double, which JSON prints as 12.34). */
export function toBaht(satang: number): number {
  if (!Number.isSafeInteger(satang)) throw new Error(`not an integer amount of satang: ${satang}`);
  return satang / 100;
}

/** Satang as decimal text for reports: -1234 -> "-12.34". */
export function formatSatang(satang: number): string {
  const sign = satang < 0 ? '-' : '';
  const abs = Math.abs(satang);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
