// `npm run build`: the SPA (webpack, into dist/) and the server (esbuild, into build/server/), once, so that
// `npm run start:prod` runs plain node with no devDependency (docs/server.md "Production build").
//
//   node scripts/build.mjs                 # both
//   node scripts/build.mjs --server-only   # the server alone (the SPA record kept from dist/ or the last build)
//
// The server is transpiled file by file (no bundle: the compiled tree is the source tree, so stack traces and
// __dirname-relative files stay where they are): every non-test server/**/*.ts and the shared/ files it imports,
// CommonJS for Node 20, with a source map next to each file. Nothing serves build/ (the server serves dist/,
// public/games and public/media only), so the maps stay private. build/server/manifest.json records the inputs'
// hashes that scripts/start-prod.cjs checks the checkout against.
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

// esbuild and webpack are devDependencies: a production install (npm ci --omit=dev) runs a build, never makes one.
const esbuild = await import('esbuild').catch(() => {
  console.error('build: esbuild is not installed; npm run build needs the devDependencies (npm ci, without --omit=dev)');
  process.exit(1);
});
const require = createRequire(import.meta.url);
/** @type {import('./build-manifest.cjs')} */
const manifest = require('./build-manifest.cjs');

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, manifest.BUILD_DIR);
/** Files the TypeScript server reaches by path, never by import, and that the compiled one does not use. */
const NOT_BUILT = new Set(['server/plugins/deposits/slip-worker.cjs']);

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--server-only');
if (unknown.length) {
  console.error(`build: unknown argument ${unknown[0]} (only --server-only)`);
  process.exit(2);
}
const serverOnly = args.includes('--server-only');
const seconds = (t0) => `${((performance.now() - t0) / 1000).toFixed(1)} s`;

function fail(message) {
  console.error(`build: ${message}`);
  process.exit(1);
}

/** The SPA: webpack as before; its inputs are hashed before it reads them, so an edit during the build shows. */
function buildSpa() {
  const t0 = performance.now();
  const record = manifest.recordInputs(ROOT, 'spa');
  console.log('build: SPA (npx webpack --mode production) ...');
  const res = spawnSync('npx', ['webpack', '--mode', 'production'], { cwd: ROOT, stdio: 'inherit', env: process.env });
  if (res.status !== 0) fail(`webpack failed (exit ${res.status ?? res.signal})`);
  console.log(`build: SPA done in ${seconds(t0)}`);
  return record;
}

/**
 * --server-only: the SPA in dist/ is taken as built from the current inputs when its index.html is newer than all
 * of them (npm start's rule), else the last build's record stands (start:prod then names what changed), else none.
 */
function spaRecordWithoutBuilding() {
  const index = path.join(ROOT, 'dist', 'index.html');
  const built = fs.statSync(index, { throwIfNoEntry: false })?.mtimeMs;
  if (built !== undefined && manifest.listInputs(ROOT, manifest.SETS.spa).newest < built) return manifest.recordInputs(ROOT, 'spa');
  return manifest.readManifest(ROOT)?.spa ?? null;
}

const toPosix = (p) => p.split(path.sep).join('/');

/** The file a relative require of `from` (a repository path) names: `x.ts`, `x/index.ts` or `x` itself. */
function resolveImport(from, spec) {
  const base = path.join(ROOT, path.dirname(from), spec);
  if (/\.tsx?$/.test(spec)) fail(`${from} imports '${spec}' with its .ts extension, which the compiled code cannot require`);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts'), base]) {
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return toPosix(path.relative(ROOT, candidate));
  }
  fail(`${from} imports '${spec}', which is not there`);
}

/**
 * Transpiles `entries` and, in turn, every shared/ file they import; the relative requires of the output must stay
 * inside server/ and shared/ (the only folders the build holds). Returns the outputs and the non-TS files to copy.
 */
async function compileServer(entries) {
  const compiled = new Map(); // repository path of the .ts -> its outputs
  const copies = new Set();
  let queue = entries;
  while (queue.length) {
    const result = await esbuild.build({
      absWorkingDir: ROOT,
      entryPoints: queue,
      outbase: '.',
      outdir: manifest.BUILD_DIR,
      bundle: false,
      format: 'cjs',
      platform: 'node',
      target: 'node20',
      // import() as require(), as tsx runs it: node's own import() resolves neither `./folder` nor a missing `.js`.
      supported: { 'dynamic-import': false },
      sourcemap: true,
      charset: 'utf8',
      write: false,
      logLevel: 'warning',
    });
    const next = new Set();
    for (const entry of queue) compiled.set(entry, []);
    for (const file of result.outputFiles) {
      const rel = toPosix(path.relative(OUT, file.path));
      const source = rel.replace(/\.js(\.map)?$/, '.ts');
      if (!compiled.has(source)) fail(`esbuild wrote ${rel}, which no input explains`);
      compiled.get(source).push(file);
      if (!rel.endsWith('.js')) continue;
      for (const [, spec] of file.text.matchAll(/\brequire\("(\.{1,2}\/[^"]*)"\)/g)) {
        const target = resolveImport(source, spec);
        if (!/^(server|shared)\//.test(target)) fail(`${source} imports ${target}: only server/ and shared/ are built`);
        if (target.endsWith('.ts')) {
          if (!compiled.has(target) && !queue.includes(target)) next.add(target);
        } else copies.add(target);
      }
    }
    queue = [...next];
  }
  return { compiled, copies };
}

async function buildServer() {
  const t0 = performance.now();
  const record = manifest.recordInputs(ROOT, 'server');
  const sources = Object.keys(record.files).filter((f) => f.startsWith('server/') && !NOT_BUILT.has(f));
  const entries = sources.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  const { compiled, copies } = await compileServer(entries);
  for (const f of sources) if (!f.endsWith('.ts')) copies.add(f);

  // A clean tree each time: a source removed since the last build leaves no compiled file behind.
  fs.rmSync(OUT, { recursive: true, force: true });
  let bytes = 0;
  let maps = 0;
  for (const outputs of compiled.values()) {
    for (const file of outputs) {
      fs.mkdirSync(path.dirname(file.path), { recursive: true });
      fs.writeFileSync(file.path, file.contents);
      if (file.path.endsWith('.map')) maps += file.contents.length;
      else bytes += file.contents.length;
    }
  }
  for (const rel of copies) {
    const to = path.join(OUT, rel);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.copyFileSync(path.join(ROOT, rel), to);
    bytes += fs.statSync(to).size;
  }
  const shared = [...compiled.keys()].filter((f) => f.startsWith('shared/')).length;
  const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
  console.log(
    `build: server done in ${seconds(t0)}: ${compiled.size} files (${shared} from shared/), ${copies.size} copied, ` +
      `${mb(bytes)} of JavaScript and ${mb(maps)} of source maps in ${manifest.BUILD_DIR}/`,
  );
  return record;
}

const spa = serverOnly ? spaRecordWithoutBuilding() : buildSpa();
const server = await buildServer();
manifest.writeManifest(ROOT, { server, spa });
if (!spa) console.log('build: no SPA recorded (dist/ is missing or older than its sources): npm run start:prod will refuse until `npm run build`');
console.log(`build: wrote ${manifest.MANIFEST}`);
