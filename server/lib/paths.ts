import fs from 'node:fs';
import path from 'node:path';

/**
 * True when this code runs compiled (`npm run build` wrote it to build/server/, `npm run start:prod` runs it with
 * plain node), false under tsx or jest. The one place that tells the two apart (docs/server.md "Production build").
 */
export const COMPILED = __filename.endsWith('.js');

/** The nearest folder at or above `from` that holds a package.json (the build never writes one into build/). */
export function packageRoot(from: string): string {
  for (let dir = path.resolve(from); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json at or above ${from}`);
  }
}

/**
 * The repository root (package.json, dist/, public/, src/): server/lib/.. under tsx, build/server/server/lib/../../..
 * when compiled, so paths to the root are never counted in `..`s from a file's own folder.
 */
export const ROOT = packageRoot(__dirname);
