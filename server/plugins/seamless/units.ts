/**
 * Hub88's amounts (its Wallet API: "the amount of money displayed in integer (Int64) format; the real value is
 * multiplied by 100000", $3.56 = 356000) against ours (integer satang, 1/100 of the baht or kip): one satang is
 * 1,000 units. An amount that is not a whole satang cannot be booked and is refused (RS_ERROR_WRONG_TYPES).
 */
export const UNITS_PER_SATANG = 1000;

/** Satang of a Hub88 amount, or null when it is not a whole, non-negative number of satang. */
export function satangOfUnits(units: number): number | null {
  if (!Number.isSafeInteger(units) || units < 0 || units % UNITS_PER_SATANG !== 0) return null;
  return units / UNITS_PER_SATANG;
}

/** Hub88 units of a satang amount (a balance we answer). */
export function unitsOfSatang(satang: number): number {
  return satang * UNITS_PER_SATANG;
}
