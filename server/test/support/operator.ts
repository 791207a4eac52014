import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runOperator, type OperatorContext } from '../../cli/operator-cli';

/**
 * `npm run operator -- ...` in a test: runOperator (the CLI's own entry) on the test app's database, with what it
 * printed in `out` and `err` (emptied in place before each run, so destructured references stay current), and
 * JSON files written to a folder of the test's own.
 */
export function operatorSession(context: () => Pick<OperatorContext, 'db' | 'config'> & Partial<Pick<OperatorContext, 'env' | 'prompt' | 'secretKey'>>) {
  const out: string[] = [];
  const err: string[] = [];
  let dir: string | null = null;
  const folder = () => (dir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'operator-')));
  return {
    out,
    err,
    run(...args: string[]): Promise<number> {
      out.length = 0;
      err.length = 0;
      return runOperator(args, { ...context(), out: (l) => out.push(l), err: (l) => err.push(l) });
    },
    /** Writes a file (JSON unless a string is given) and returns its path. */
    file(name: string, value: unknown): string {
      const p = path.join(folder(), name);
      fs.writeFileSync(p, typeof value === 'string' ? value : JSON.stringify(value));
      return p;
    },
    /** A path in the folder where no file is. */
    missing: (name: string) => path.join(folder(), name),
    cleanup(): void {
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
