import net from 'node:net';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/**
 * A redis-server of a test's own, on a free port, that the test stops and starts again (issue 43's faults): never
 * the shared one on 6379, which other runs use. Needs only the redis-server binary (not REDIS_URL), so suites on it
 * run wherever the binary is, on both engines; without it they are skipped (`hasRedisServer`).
 */
export const hasRedisServer = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

export interface OwnRedis {
  port: number;
  /** redis://127.0.0.1:{port}/{db} */
  url(db?: number): string;
  /** Stops the server (SIGKILL: nothing to save, and a test of a crash wants no goodbye). Resolves on its exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  running(): boolean;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = () =>
    new Promise<void>((resolve, reject) => {
      const c = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      let out = '';
      const onData = (b: Buffer) => {
        out += b;
        if (/Ready to accept connections/.test(out)) {
          c.stdout?.off('data', onData);
          c.stdout?.resume();
          resolve();
        }
      };
      c.stdout?.on('data', onData);
      c.stderr?.on('data', (b) => (out += b));
      c.once('exit', (code, signal) => {
        if (child === c) child = null;
        reject(new Error(`redis-server on ${port} exited (${signal ?? code}) before it was ready:\n${out}`));
      });
    });
  await start();
  return {
    port,
    url: (db = 0) => `redis://127.0.0.1:${port}/${db}`,
    running: () => child !== null,
    start,
    stop: () =>
      new Promise<void>((resolve) => {
        const c = child;
        if (!c || c.exitCode !== null || c.signalCode !== null) return resolve();
        c.once('exit', () => resolve());
        c.kill('SIGKILL');
      }),
  };
}
