import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../e2e/harness';
import { measureLighthouse } from './lighthouse';
import { measureLoginBundle } from './login-bundle';
import { measureServer } from './server';

/**
 * `npm run bench`: builds the SPA for production and prints the figures each budget is checked against.
 * Exits non-zero when a budget is exceeded. Figures, not timed tests. BENCH_SERVER=0 leaves out the server section
 * (test/bench/server.ts, about a minute; with DATABASE_URL it also measures PostgreSQL).
 * `-- --load` (and `--load --faults`, `--load-short`) runs issue 43's day of load instead (docs/operations.md "A day of load").
 */
async function main() {
  // --load, --load --faults, --load-short: issue 43's day of load instead (test/bench/load/phase.ts).
  const args = process.argv.slice(2);
  if (args.includes('--load') || args.includes('--load-short')) process.exit((await (await import('./load/phase')).loadPhase(args)) ? 0 : 1);
  if (!process.env.BENCH_SKIP_BUILD) execFileSync('npx', ['webpack', '--mode', 'production'], { cwd: ROOT, stdio: 'ignore' });
  let ok = true;
  const bundle = await measureLoginBundle();
  console.log(bundle.lines.join('\n'));
  ok &&= bundle.ok;
  console.log((await measureLighthouse()).join('\n'));
  console.log(webhookToScreen());
  if (process.env.BENCH_SERVER !== '0') {
    const server = await measureServer();
    console.log(server.lines.join('\n'));
    ok &&= server.ok;
    ok = (await (await import('./seamless')).printSeamless()) && ok; // issue 42's seamless phase (test/bench/seamless.ts)
  }
  process.exit(ok ? 0 : 1);
}

/** The live balance's figure, as test/e2e/deposit.e2e.ts last measured it (the bench does not run the e2e suite). */
function webhookToScreen(): string {
  const file = path.join(ROOT, '.tmp', 'webhook-to-screen.json');
  if (!fs.existsSync(file)) return 'webhook 200 -> paid QR on screen: not measured (run npm run test:e2e -- test/e2e/deposit.e2e.ts)';
  const f = JSON.parse(fs.readFileSync(file, 'utf8')) as { runs: number[]; p50: number; max: number; at: string };
  return `webhook 200 -> paid QR on screen (e2e, ${f.at}): ${f.runs.join(', ')} ms, p50 ${f.p50} ms, max ${f.max} ms; budget 1000 ms -> ${f.max < 1000 ? 'within budget' : 'OVER BUDGET'}`;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
