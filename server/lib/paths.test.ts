import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { COMPILED, ROOT, packageRoot } from './paths';
import { IGNORED, INPUTS } from '../spa-build';
import { SPA_IGNORED, SPA_INPUTS, checkBuild, recordInputs, writeManifest } from '../../scripts/build-manifest.cjs';

describe('paths', () => {
  test('under jest the server runs as TypeScript, from the repository root', () => {
    expect(COMPILED).toBe(false);
    expect(fs.existsSync(path.join(ROOT, 'package.json'))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, 'server', 'start.ts'))).toBe(true);
  });

  test('the root is the nearest folder holding a package.json, however deep the file (build/server/server/...)', () => {
    const top = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-root-'));
    try {
      fs.writeFileSync(path.join(top, 'package.json'), '{}');
      const deep = path.join(top, 'build', 'server', 'server', 'lib');
      fs.mkdirSync(deep, { recursive: true });
      expect(packageRoot(deep)).toBe(top);
      expect(packageRoot(top)).toBe(top);
    } finally {
      fs.rmSync(top, { recursive: true, force: true });
    }
  });

  test("the production build's SPA inputs are npm start's (server/spa-build.ts)", () => {
    expect(SPA_INPUTS).toEqual(INPUTS);
    expect(SPA_IGNORED).toEqual(IGNORED);
  });
});

/**
 * scripts/start-prod.cjs against a small tree of its own: the launcher and its manifest module copied in, a
 * start.js that only says it ran, and a manifest written the way scripts/build.mjs writes it.
 */
/** Every file under `dir` a minute into the past. */
function earlier(dir: string): void {
  const t = new Date(Date.now() - 60_000);
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) fs.utimesSync(path.join(entry.parentPath, entry.name), t, t);
}

describe('npm run start:prod refuses a missing or stale build', () => {
  let root: string;
  const write = (rel: string, body = `// ${rel}\n`) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), body);
  };
  const later = (rel: string) => {
    const t = new Date(Date.now() + 60_000);
    fs.utimesSync(path.join(root, rel), t, t);
  };
  const build = () => writeManifest(root, { server: recordInputs(root, 'server'), spa: recordInputs(root, 'spa') });
  const launch = (env: NodeJS.ProcessEnv = {}) => {
    const res = spawnSync(process.execPath, ['scripts/start-prod.cjs'], { cwd: root, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' });
    return { status: res.status, out: res.stdout.trim(), err: res.stderr.trim() };
  };
  const started = { status: 0, out: 'compiled server started', err: '' };
  const refused = (line: string) => ({ status: 1, out: '', err: line });

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-prod-'));
    for (const f of ['start-prod.cjs', 'build-manifest.cjs']) write(`scripts/${f}`, fs.readFileSync(path.join(ROOT, 'scripts', f), 'utf8'));
    write('package.json', '{}');
    write('package-lock.json', '{"lockfileVersion":3}');
    write('server/app.ts');
    write('server/app.test.ts');
    write('server/test/support/helper.ts');
    write('server/plugins/deposits/slip-worker.cjs');
    write('shared/errorCodes.ts');
    write('src/index.tsx');
    write('src/test/setup.ts');
    write('locales/en.json', '{}');
    write('public/index.html', '<html></html>');
    write('public/games/pg-logo.png', 'png');
    write('webpack.config.ts');
    write('dist/index.html', '<html></html>');
    write('build/server/server/start.js', "console.log('compiled server started');\n");
    // Sources older than the build by more than the check's slack for coarse modification times, as after a checkout.
    earlier(root);
    build();
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test('a fresh build starts, without hashing anything', () => {
    expect(launch()).toEqual(started);
    expect(checkBuild(root)).toEqual({ ok: true, hashed: [] });
  });

  test('no compiled server, no manifest or no dist/index.html: refused with what to run', () => {
    fs.rmSync(path.join(root, 'dist', 'index.html'));
    expect(launch()).toEqual(refused('Cannot start: no built SPA (dist/index.html is missing); run `npm run build` first'));
    fs.rmSync(path.join(root, 'build', 'server', 'manifest.json'));
    expect(launch()).toEqual(refused('Cannot start: build/server/manifest.json is missing or unreadable; run `npm run build` first'));
    fs.rmSync(path.join(root, 'build'), { recursive: true });
    expect(launch()).toEqual(refused('Cannot start: no compiled server (build/server/server/start.js is missing); run `npm run build` first'));
  });

  test('a server or shared source changed, added or removed since the build: refused, naming it', () => {
    write('server/app.ts', '// edited\n');
    expect(launch()).toEqual(refused('Cannot start: server/app.ts changed since the last build of the server; run `npm run build`'));
    build();
    write('server/plugins/new-feature.ts');
    expect(launch()).toEqual(refused('Cannot start: server/plugins/new-feature.ts is new since the last build of the server; run `npm run build`'));
    build();
    fs.rmSync(path.join(root, 'shared', 'errorCodes.ts'));
    expect(launch()).toEqual(refused('Cannot start: shared/errorCodes.ts is gone since the last build of the server; run `npm run build`'));
    build();
    write('package-lock.json', '{"lockfileVersion":3,"packages":{}}');
    expect(launch()).toEqual(refused('Cannot start: package-lock.json changed since the last build of the server; run `npm run build`'));
  });

  test('an SPA source changed since the build: refused, naming it', () => {
    write('locales/en.json', '{"a":"b"}');
    expect(launch()).toEqual(refused('Cannot start: locales/en.json changed since the last build of the SPA; run `npm run build`'));
  });

  test('a file newer than the build with the same content (a copy without times, a touch) is hashed and starts', () => {
    later('server/app.ts');
    later('src/index.tsx');
    expect(checkBuild(root)).toEqual({ ok: true, hashed: ['server', 'spa'] });
    expect(launch()).toEqual(started);
  });

  test('tests, test support and public/games are not inputs: a change there still starts', () => {
    write('server/app.test.ts', '// another test\n');
    write('server/test/support/helper.ts', '// another helper\n');
    write('src/test/setup.ts', '// another setup\n');
    write('public/games/pg-logo.png', 'another png');
    later('server/app.test.ts');
    expect(launch()).toEqual(started);
  });

  test('a build made with --server-only before any SPA build records no SPA: refused', () => {
    writeManifest(root, { server: recordInputs(root, 'server'), spa: null });
    expect(launch().err).toMatch(/^Cannot start: the build did not record the SPA's sources .*; run `npm run build`$/);
  });

  test('DIST_DIR: its index.html is the one that must exist', () => {
    expect(launch({ DIST_DIR: path.join(root, 'elsewhere') })).toEqual(refused('Cannot start: no built SPA (elsewhere/index.html is missing); run `npm run build` first'));
    write('elsewhere/index.html', '<html></html>');
    expect(launch({ DIST_DIR: 'elsewhere' })).toEqual(started);
  });
});

/**
 * scripts/cli.cjs (npm run operator, migrate, backup, restore, audit:ledger) in a tree without node_modules, as a
 * production install is to it (no tsx): the compiled CLI runs after the server build's check, with its arguments
 * and exit code, and without asking for dist/; a missing or stale server build refuses it.
 */
describe('the CLIs on a production install (no tsx) run compiled', () => {
  let root: string;
  const write = (rel: string, body = `// ${rel}\n`) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), body);
  };
  const cli = (...args: string[]) => {
    const res = spawnSync(process.execPath, ['scripts/cli.cjs', ...args], { cwd: root, env: { PATH: process.env.PATH }, encoding: 'utf8' });
    return { status: res.status, out: res.stdout.trim(), err: res.stderr.trim() };
  };

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-cli-'));
    for (const f of ['cli.cjs', 'build-manifest.cjs']) write(`scripts/${f}`, fs.readFileSync(path.join(ROOT, 'scripts', f), 'utf8'));
    write('package.json', '{}');
    write('package-lock.json', '{"lockfileVersion":3}');
    write('server/app.ts');
    write('build/server/server/start.js', '');
    // Runs only as node's entry, like the real CLIs (require.main === module).
    write('build/server/server/cli/operator-cli.js', "if (require.main === module) { console.log('operator ' + process.argv.slice(2).join(' ')); process.exit(process.argv.includes('check') ? 1 : 0); }\n");
    writeManifest(root, { server: recordInputs(root, 'server'), spa: null });
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  test('runs the compiled CLI with its arguments and exit code, with no dist/ and no SPA recorded', () => {
    expect(cli('operator-cli', 'site', 'gone')).toEqual({ status: 0, out: 'operator site gone', err: '' });
    expect(cli('operator-cli', 'check')).toEqual({ status: 1, out: 'operator check', err: '' });
  });

  test('a server source changed since the build, or no build: refused with what to run', () => {
    write('server/app.ts', '// edited\n');
    expect(cli('operator-cli', 'site')).toEqual({ status: 1, out: '', err: 'Cannot run operator-cli: server/app.ts changed since the last build of the server; run `npm run build`' });
    fs.rmSync(path.join(root, 'build'), { recursive: true });
    expect(cli('operator-cli', 'site').err).toBe('Cannot run operator-cli: no compiled server (build/server/server/start.js is missing); run `npm run build` first');
  });

  test('an unknown CLI name: usage, exit 2', () => {
    expect(cli('rm-rf')).toMatchObject({ status: 2, err: expect.stringContaining('usage: node scripts/cli.cjs <operator-cli|migrate-cli|backup-cli|audit-cli>') });
  });
});
