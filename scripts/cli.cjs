// @ts-check
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS: run by plain node in a production install */
'use strict';
/**
 * `npm run operator|migrate|backup|restore|audit:ledger`: one of the server's CLIs (server/cli/<name>.ts).
 * - In a development install (tsx is there): from the sources, through tsx, as before.
 * - In a production install (`npm ci --omit=dev`, no tsx): the compiled CLI in build/server/, after the same check
 *   start:prod makes of the server's build (missing or older than the sources: one line, exit 1). The CLIs serve
 *   no SPA, so dist/ is not asked for.
 * Usage: node scripts/cli.cjs <operator-cli|migrate-cli|backup-cli|audit-cli> [args...]
 */
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { BUILD_DIR, checkBuild } = require('./build-manifest.cjs');

const ROOT = path.resolve(__dirname, '..');
const CLIS = ['operator-cli', 'migrate-cli', 'backup-cli', 'audit-cli'];

const [name, ...args] = process.argv.slice(2);
if (!name || !CLIS.includes(name)) {
  console.error(`usage: node scripts/cli.cjs <${CLIS.join('|')}> [args...]`);
  process.exit(2);
}

/** True when tsx can be loaded from the repository, i.e. devDependencies are installed. */
function hasTsx() {
  try {
    require.resolve('tsx', { paths: [ROOT] });
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs node with `argv` in a child that has the terminal as is (the CLIs ask for passwords without echo), and
 * exits with its code.
 * @param {string[]} argv
 * @returns {never}
 */
function run(argv) {
  const res = spawnSync(process.execPath, argv, { cwd: ROOT, stdio: 'inherit' });
  if (res.error) throw res.error;
  process.exit(res.status ?? (res.signal ? 128 + (require('node:os').constants.signals[res.signal] ?? 0) : 1));
}

if (hasTsx()) {
  run(['--import', 'tsx', path.join('server', 'cli', `${name}.ts`), ...args]);
} else {
  const verdict = checkBuild(ROOT, { serverOnly: true });
  if (!verdict.ok) {
    console.error(`Cannot run ${name}: ${verdict.reason}`);
    process.exit(1);
  }
  // Its own process: each CLI runs its main only as node's entry (require.main === module).
  run(['--enable-source-maps', path.join(BUILD_DIR, 'server', 'cli', `${name}.js`), ...args]);
}
