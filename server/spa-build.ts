import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { COMPILED, ROOT } from './lib/paths';

/** The repository root (package.json, webpack.config.ts, src/, dist/). */
export { ROOT };

/** What the SPA build reads. public/games and public/media are served as is, not built, so they do not count. */
export const INPUTS = ['src', 'shared', 'locales', 'public', 'webpack.config.ts'];
export const IGNORED = [path.join('public', 'games'), path.join('public', 'media')];

/** The newest modification time (ms) of any file under `paths` (files or folders), or 0 when there is none. */
export function newestMtime(root: string, paths: string[] = INPUTS, ignored: string[] = IGNORED): number {
  let newest = 0;
  const skip = new Set(ignored.map((p) => path.join(root, p)));
  const walk = (p: string) => {
    if (skip.has(p)) return;
    let st: fs.Stats;
    try {
      st = fs.statSync(p);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(p)) walk(path.join(p, name));
    } else if (st.mtimeMs > newest) {
      newest = st.mtimeMs;
    }
  };
  for (const p of paths) walk(path.join(root, p));
  return newest;
}

/** True when dist/index.html is missing or older than any input of the build. */
export function spaIsStale(root: string, distDir: string): boolean {
  let built: number;
  try {
    built = fs.statSync(path.join(distDir, 'index.html')).mtimeMs;
  } catch {
    return true;
  }
  return newestMtime(root) > built;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Builds the SPA with `npx webpack --mode production` when it is stale. Several servers started at once
 * (the end-to-end suite starts one per worker) share a lock, so one builds and the others wait for it.
 * Returns whether this call ran a build; throws when the build fails.
 */
export async function ensureSpaBuilt(
  root: string = ROOT,
  distDir: string = path.join(root, 'dist'),
  log: (line: string) => void = (l) => console.log(l),
): Promise<boolean> {
  // The compiled server (npm run start:prod) runs without webpack, a devDependency: it is built once, beforehand.
  if (COMPILED) throw new Error('the compiled server never builds the SPA; run `npm run build`');
  if (!spaIsStale(root, distDir)) return false;
  const lock = path.join(root, '.tmp', 'spa-build.lock');
  fs.mkdirSync(path.dirname(lock), { recursive: true });
  const deadline = Date.now() + 10 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A lock older than 10 minutes belongs to a build that died.
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) fs.rmSync(lock, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error(`timed out waiting for another SPA build (${lock})`);
      await sleep(500);
    }
  }
  try {
    if (!spaIsStale(root, distDir)) return false; // built by whoever held the lock
    log('Building the web app (npx webpack --mode production)...');
    const res = spawnSync('npx', ['webpack', '--mode', 'production'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: process.env });
    if (res.status !== 0) throw new Error(`the SPA build failed (exit ${res.status ?? res.signal}); run \`npm run build\` to see why`);
    return true;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
