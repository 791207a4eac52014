/**
 * A provider's baht amount (a JSON number such as 1500.5, or a decimal string "1500.50") as integer satang,
 * through its decimal text, never float arithmetic: 0.1 + 0.2 style errors cannot reach the ledger. More than
 * two decimals, a negative, an exponent or anything not a plain decimal is null: the adapter refuses the answer.
 * (The ledger's parseWireBaht does the same for our own wire; adapters may not import the ledger.)
 */
export function bahtToSatang(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value); // the shortest text that round-trips: 1500.5 -> "1500.5", never "1500.4999..."
  } else if (typeof value === 'string') text = value.trim();
  else return null;
  const m = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}
