/**
 * `npm run dev`: the API on :3001, restarted on every server change (node --watch), and
 * webpack-dev-server with hot reload on :8080, which proxies /api, /socket.io, /healthz and /demo to it
 * (webpack.config.ts). Open http://localhost:8080. Ctrl-C stops both; if either dies, the other is stopped.
 */
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';

const root = path.resolve(__dirname, '..');
const apiPort = process.env.API_PORT ?? '3001';
const webPort = process.env.WEB_PORT ?? '8080';

function run(name: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const prefix = (line: string) => (line ? `[${name}] ${line}` : line);
  child.stdout?.on('data', (d: Buffer) => process.stdout.write(String(d).split('\n').map(prefix).join('\n')));
  child.stderr?.on('data', (d: Buffer) => process.stderr.write(String(d).split('\n').map(prefix).join('\n')));
  return child;
}

const api = run('api', ['--watch', '--import', 'tsx', 'server/start.ts'], {
  PORT: apiPort,
  DEMO: process.env.DEMO ?? 'on',
  SKIP_SPA_BUILD: '1', // webpack-dev-server serves the SPA
});
const web = run('web', [require.resolve('webpack-cli/bin/cli.js'), 'serve', '--mode', 'development'], {
  PORT: webPort,
  API_PORT: apiPort,
});
console.log(`dev: open http://localhost:${webPort} (API on http://localhost:${apiPort})`);

const children = [api, web];
let stopping = false;
function stop(code: number) {
  if (stopping) return;
  stopping = true;
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 3000).unref();
  Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : null))).then(() => process.exit(code));
}
for (const c of children) c.on('exit', (code) => stop(code ?? 1));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
