import { execFileSync } from 'node:child_process';
import { ROOT } from '../e2e/harness';
import { measureLighthouse } from './lighthouse';
import { measureLoginBundle } from './login-bundle';

/**
 * `npm run bench`: builds the SPA for production and prints the figures each budget is checked against.
 * Exits non-zero when a budget is exceeded. Figures, not timed tests.
 */
async function main() {
  if (!process.env.BENCH_SKIP_BUILD) execFileSync('npx', ['webpack', '--mode', 'production'], { cwd: ROOT, stdio: 'ignore' });
  let ok = true;
  const bundle = await measureLoginBundle();
  console.log(bundle.lines.join('\n'));
  ok &&= bundle.ok;
  console.log((await measureLighthouse()).join('\n'));
  process.exit(ok ? 0 : 1);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
