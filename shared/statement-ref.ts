/**
 * The short reference a player reads and tells support (issue 40 item 5): `D-2612-4821`, a letter for the kind of
 * line, the year and month of the line in Thai time (UTC+7, no daylight saving), and four digits derived from the
 * line's own id. The server sends it with every statement line and the SPA derives it the same way for lines of an
 * older server, so the statement, the receipt and a review shown in the deposit modal all say the same.
 *
 * Derived from the statement line's id and creation time, never from what the line refers to: a held deposit's line
 * keeps its id when staff approve it (its ref_type and ref_id change), so its reference stays the one the player saw.
 * Four digits are for people: two lines can share one, so staff find a line by the player and the reference together.
 */
export interface StatementRefLine {
  /** The statement line's id. */
  _id: string;
  statementType: string;
  /** ISO 8601. */
  createdAt: string;
}

const LETTERS: Record<string, string> = { deposit: 'D', withdraw: 'W', transfer: 'T', bonus: 'B', finish_bonus: 'E' };
const BANGKOK_OFFSET_MS = 7 * 3600_000;

/** FNV-1a, 32 bits: small, stable on every engine and in every browser. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function statementRef(line: StatementRefLine): string {
  const letter = LETTERS[line.statementType] ?? 'X';
  const at = Date.parse(line.createdAt);
  const local = new Date((Number.isNaN(at) ? 0 : at) + BANGKOK_OFFSET_MS);
  const yymm = `${String(local.getUTCFullYear() % 100).padStart(2, '0')}${String(local.getUTCMonth() + 1).padStart(2, '0')}`;
  const digits = String(fnv1a(`${line.statementType}:${line._id}`) % 10000).padStart(4, '0');
  return `${letter}-${yymm}-${digits}`;
}
