import fs from 'node:fs';

/**
 * What the operator's commands that read JSON files share (`npm run operator -- bonus add <file>`, `wheel set
 * <file>` ...): where lines go, and how a file is read. Exit codes as the operator CLI: 0 done, 1 not found,
 * 2 bad usage or a file that does not pass the checks.
 */
export interface OperatorIo {
  out: (line: string) => void;
  err: (line: string) => void;
  /** Reads a file (tests pass their own); default fs.readFileSync as UTF-8. */
  readFile?: (path: string) => string;
}

/** Reads and parses a JSON file; an unreadable or malformed file is reported on err. */
export function readJson(io: OperatorIo, file: string): { ok: true; value: unknown } | { ok: false } {
  let text: string;
  try {
    text = (io.readFile ?? ((p) => fs.readFileSync(p, 'utf8')))(file);
  } catch (e) {
    io.err(`cannot read ${file}: ${e instanceof Error ? e.message : String(e)}`);
    return { ok: false };
  }
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    io.err(`${file} is not JSON: ${e instanceof Error ? e.message : String(e)}`);
    return { ok: false };
  }
}

/** A file that must hold one JSON object: its problems are reported by `check`; returns the object or null. */
export function readJsonObject(io: OperatorIo, file: string, check: (v: Record<string, unknown>) => string[]): Record<string, unknown> | null {
  const json = readJson(io, file);
  if (!json.ok) return null;
  const v = json.value;
  const errors = v && typeof v === 'object' && !Array.isArray(v) ? check(v as Record<string, unknown>) : ['the file must hold a JSON object'];
  if (errors.length) {
    for (const e of errors) io.err(e);
    io.err('nothing was written');
    return null;
  }
  return v as Record<string, unknown>;
}
