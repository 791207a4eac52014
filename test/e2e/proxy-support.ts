import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import net from 'node:net';
import { ROOT } from './harness';

/**
 * Debian's nginx running deploy/nginx.conf itself in front of a test server (proxy.e2e.ts): the shipped file with only
 * its named placeholders replaced, in a temp folder of its own (pid, logs, spool folders, the certificate).
 */
export const NGINX = process.env.NGINX_PATH || '/usr/sbin/nginx';
export const OPENSSL = '/usr/bin/openssl';
export const SHIPPED_CONF = path.join(ROOT, 'deploy', 'nginx.conf');

/** Why the proxy journey cannot run here, or null. */
export function proxyToolsMissing(): string | null {
  if (!fs.existsSync(NGINX)) return `${NGINX} is missing (apt-get install -y nginx)`;
  if (!fs.existsSync(OPENSSL)) return `${OPENSSL} is missing (apt-get install -y openssl)`;
  return null;
}

/** A self-signed certificate for localhost, valid one day. */
export function selfSignedCert(dir: string): { cert: string; key: string } {
  const cert = path.join(dir, 'fullchain.pem');
  const key = path.join(dir, 'privkey.pem');
  execFileSync(OPENSSL, ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1', '-keyout', key, '-out', cert], { stdio: 'ignore' });
  return { cert, key };
}

/**
 * The shipped file with each placeholder replaced; every placeholder must be there exactly as often as the file
 * promises it (its head comment), so a renamed or dropped one fails here instead of testing another config.
 */
export function configFor(shipped: string, values: { dir: string; appPort: number; httpsPort: number; httpPort: number; cert: string; key: string }): string {
  const replacements: [from: string, to: string, times: number][] = [
    ['server_name wallet.example.com;', 'server_name localhost;', 2],
    ['listen 443 ssl http2;', `listen 127.0.0.1:${values.httpsPort} ssl http2;`, 1],
    ['listen 80;', `listen 127.0.0.1:${values.httpPort};`, 1],
    ['server 127.0.0.1:3000;', `server 127.0.0.1:${values.appPort};`, 1],
    ['/etc/ssl/wallet/fullchain.pem', values.cert, 1],
    ['/etc/ssl/wallet/privkey.pem', values.key, 1],
    ['/run/nginx.pid', path.join(values.dir, 'nginx.pid'), 1],
    ['/var/log/nginx/', `${values.dir}/`, 2],
    ['/var/lib/nginx/', `${values.dir}/`, 5],
  ];
  // Directives only: the comments name the placeholders too.
  const lines = shipped.split('\n');
  for (const [from, to, times] of replacements) {
    let found = 0;
    for (let i = 0; i < lines.length; i++) {
      if (lines[i].trimStart().startsWith('#')) continue;
      found += lines[i].split(from).length - 1;
      lines[i] = lines[i].split(from).join(to);
    }
    if (found !== times) throw new Error(`deploy/nginx.conf: "${from}" found ${found} times, expected ${times}`);
  }
  return lines.join('\n');
}

export interface RunningProxy {
  httpsPort: number;
  httpPort: number;
  origin: string;
  /** nginx's error log and its output so far. */
  log(): string;
  stop(): Promise<void>;
}

/** nginx on two free ports in front of the app on `appPort`, in `dir` (pid, logs, spool). Resolves once it accepts TLS. */
/**
 * `n` free ports, all different: each is held by a listener until every one is chosen. Two freePort() calls one after
 * the other could get the same port back, and nginx then found its two servers on one port (no certificate for
 * the plain one: the journey failed once that way).
 */
async function distinctFreePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, () => new Promise<net.Server>((resolve, reject) => {
      const srv = net.createServer();
      srv.on('error', reject);
      srv.listen(0, '127.0.0.1', () => resolve(srv));
    })),
  );
  const ports = servers.map((srv) => (srv.address() as net.AddressInfo).port);
  await Promise.all(servers.map((srv) => new Promise((resolve) => srv.close(resolve))));
  return ports;
}

export async function startNginx(dir: string, appPort: number): Promise<RunningProxy> {
  // Workers run as www-data when the test runs as root: they must reach the spool folders inside `dir`.
  fs.chmodSync(dir, 0o755);
  const { cert, key } = selfSignedCert(dir);
  const [httpsPort, httpPort] = await distinctFreePorts(2);
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(conf, configFor(fs.readFileSync(SHIPPED_CONF, 'utf8'), { dir, appPort, httpsPort, httpPort, cert, key }));
  const errorLog = path.join(dir, 'error.log');
  const child: ChildProcess = spawn(NGINX, ['-p', `${dir}/`, '-c', conf, '-e', errorLog, '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const log = () => `${out}${fs.existsSync(errorLog) ? fs.readFileSync(errorLog, 'utf8') : ''}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      // SIGQUIT: nginx's graceful stop (the master waits for its workers, so none is left behind).
      child.kill('SIGQUIT');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    });
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}):\n${log()}`);
    try {
      await request({ port: httpsPort, path: '/healthz' });
      break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not answer within 15 s:\n${log()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { httpsPort, httpPort, origin: `https://localhost:${httpsPort}`, log, stop };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Every header line as received, names lowercased, repeats kept. */
  raw: [string, string][];
  body: Buffer;
}

const agents = new Map<string, https.Agent>();
/** A kept-alive agent per client address, so hundreds of requests cost one TLS handshake each. */
function agentFor(localAddress: string): https.Agent {
  let agent = agents.get(localAddress);
  if (!agent) {
    agent = new https.Agent({ keepAlive: true, maxSockets: 1, localAddress, rejectUnauthorized: false });
    agents.set(localAddress, agent);
  }
  return agent;
}
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** One HTTPS request (HTTP/1.1) to the proxy on 127.0.0.1 from `localAddress` (any 127.x address works on Linux). */
export function request(opts: { port: number; path: string; method?: string; headers?: Record<string, string>; body?: Buffer; localAddress?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: '127.0.0.1',
        servername: 'localhost',
        port: opts.port,
        path: opts.path,
        method: opts.method ?? 'GET',
        headers: { host: 'localhost', ...(opts.body ? { 'content-length': String(opts.body.length) } : {}), ...opts.headers },
        agent: agentFor(opts.localAddress ?? '127.0.0.1'),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const raw: [string, string][] = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) raw.push([res.rawHeaders[i].toLowerCase(), res.rawHeaders[i + 1]]);
          resolve({ status: res.statusCode ?? 0, headers: res.headers, raw, body: Buffer.concat(chunks) });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(30_000, () => req.destroy(new Error(`${opts.method ?? 'GET'} ${opts.path}: no answer in 30 s`)));
    req.end(opts.body);
  });
}

/** How many times a header came (repeats counted: a proxy that adds what the app already set shows as 2). */
export const countOf = (answer: Answer, name: string): number => answer.raw.filter(([n]) => n === name).length;

/** A multipart/form-data body with one file part named `file`. */
export function multipartFile(bytes: Buffer, filename: string, type: string): { body: Buffer; contentType: string } {
  const boundary = `----wallet-e2e-${Date.now().toString(16)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { body: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * The PNG grown to `size` bytes with a private ancillary chunk of random bytes before IEND (decoders skip it), as big
 * as a phone's full-resolution screenshot while the slip's pixels and mini-QR stay as the bank drew them.
 */
export function padPng(png: Buffer, size: number, random: (n: number) => Buffer): Buffer {
  const iend = png.length - 12;
  if (png.subarray(iend + 4, iend + 8).toString('latin1') !== 'IEND') throw new Error('not a PNG ending in IEND');
  const data = random(Math.max(0, size - png.length - 12));
  const type = Buffer.from('prVt', 'latin1');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([type, data])));
  return Buffer.concat([png.subarray(0, iend), length, type, data, crc, png.subarray(iend)]);
}
