import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureSpaBuilt, newestMtime, spaIsStale } from './spa-build';

let root: string;
const T0 = new Date('2026-01-01T00:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

function file(rel: string, when: Date, body = 'x') {
  const p = path.join(root, rel);
  fs.mkdirSync(path.dirname(p), { recursive: true });
  fs.writeFileSync(p, body);
  fs.utimesSync(p, when, when);
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-build-'));
  file('src/app/deep/a.ts', at(0));
  file('locales/th.json', at(0));
  file('public/index.html', at(0));
  file('webpack.config.ts', at(0));
  file('dist/index.html', at(10));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const dist = () => path.join(root, 'dist');

test('a build newer than every input is fresh', () => {
  expect(newestMtime(root)).toBe(at(0).getTime());
  expect(spaIsStale(root, dist())).toBe(false);
});

test.each(['src/app/deep/a.ts', 'shared/errorCodes.ts', 'locales/la.json', 'public/manifest.webmanifest', 'webpack.config.ts'])('a change to %s makes it stale', (rel) => {
  file(rel, at(20));
  expect(spaIsStale(root, dist())).toBe(true);
});

test.each(['public/games/pg-logo.svg', 'public/media/howto/wallet.webm'])('%s is served as it is, so it does not trigger a build', (rel) => {
  file(rel, at(20));
  expect(spaIsStale(root, dist())).toBe(false);
});

test('no dist/index.html means a build is needed', () => {
  fs.rmSync(path.join(root, 'dist', 'index.html'));
  expect(spaIsStale(root, dist())).toBe(true);
});

test('a fresh build is not rebuilt', async () => {
  await expect(ensureSpaBuilt(root, dist(), () => undefined)).resolves.toBe(false);
});

test('a server that finds another build under way waits for it instead of building again', async () => {
  file('src/app/deep/a.ts', at(20)); // stale
  const lock = path.join(root, '.tmp', 'spa-build.lock');
  fs.mkdirSync(lock, { recursive: true });
  const logs: string[] = [];
  const waiting = ensureSpaBuilt(root, dist(), (l) => logs.push(l));
  await new Promise((r) => setTimeout(r, 700));
  // The other process finishes its build and releases the lock.
  file('dist/index.html', at(30));
  fs.rmSync(lock, { recursive: true });
  await expect(waiting).resolves.toBe(false);
  expect(logs).toEqual([]); // it never started webpack itself
  expect(fs.existsSync(lock)).toBe(false);
});
