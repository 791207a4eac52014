import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type TestApp } from './support/helper';

/**
 * The deployment files (docs/going-live.md): Dockerfile, .dockerignore, compose.yaml, deploy/wallet.service and
 * deploy/alerts.yml, checked as far as a machine without Docker or systemd as init allows. What they run must be
 * what package.json and CI run; every metric an alert reads must be one the app serves.
 */

// js-yaml comes with the dev tools (eslint); only this test reads YAML, so the product does not depend on it.
const yaml = require('js-yaml') as { load(text: string): unknown };

/** The repository root (server/test/..). */
const ROOT = path.join(__dirname, '..', '..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { scripts: Record<string, string> };

interface Instruction {
  op: string;
  args: string;
}
interface Stage {
  from: string;
  name: string | null;
  instructions: Instruction[];
}

/** The Dockerfile's stages: instructions with their continuation lines joined, comments dropped. */
function dockerStages(text: string): Stage[] {
  const lines = text.split('\n').filter((l) => !/^\s*#/.test(l));
  const joined = lines.join('\n').replace(/\\\n/g, ' ');
  const stages: Stage[] = [];
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Za-z]+)\s+(.*)$/.exec(line);
    if (!m) continue;
    const op = m[1].toUpperCase();
    const args = m[2].trim();
    if (op === 'FROM') {
      const f = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(args)!;
      stages.push({ from: f[1], name: f[2] ?? null, instructions: [] });
    } else if (stages.length) {
      stages[stages.length - 1].instructions.push({ op, args });
    }
  }
  return stages;
}

/** An exec-form (JSON array) instruction's words, or the shell form split on spaces. */
const words = (args: string): string[] => (args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/));

/** `npm run start:prod`'s command, e.g. ['node', '--enable-source-maps', 'scripts/start-prod.cjs']. */
const startProd = () => {
  expect(pkg.scripts['start:prod']).toBeDefined();
  return pkg.scripts['start:prod'].trim().split(/\s+/);
};

describe('Dockerfile', () => {
  const stages = dockerStages(read('Dockerfile'));
  const runs = (s: Stage) => s.instructions.filter((i) => i.op === 'RUN').map((i) => i.args);
  const runtime = stages[stages.length - 1];

  test('builds with the scripts CI runs: npm ci, then npm run build', () => {
    const build = stages.find((s) => runs(s).some((r) => /\bnpm run build\b/.test(r)));
    expect(build).toBeDefined();
    const steps = runs(build!);
    const ci = steps.findIndex((r) => /\bnpm ci\b/.test(r) && !/--omit=dev/.test(r));
    const buildStep = steps.findIndex((r) => /\bnpm run build\b/.test(r));
    expect(ci).toBeGreaterThanOrEqual(0);
    expect(buildStep).toBeGreaterThan(ci);
    expect(pkg.scripts.build).toBeDefined();
    // CI's own steps (.ci/run) are the same two commands.
    const ciRun = read('.ci/run');
    expect(ciRun).toMatch(/\bnpm ci\b/);
    expect(ciRun).toMatch(/\bnpm run build\b|prod-install-check/);
  });

  test('installs the runtime with npm ci --omit=dev, as scripts/prod-install-check.sh proves it', () => {
    expect(stages.flatMap(runs).some((r) => /\bnpm ci\b.*--omit=dev/.test(r))).toBe(true);
    expect(read('scripts/prod-install-check.sh')).toMatch(/npm ci\b[^\n]*--omit=dev/);
    // The runtime's node_modules are that install, never the build stage's (which holds the dev dependencies).
    const deps = stages.find((s) => runs(s).some((r) => /--omit=dev/.test(r)))!;
    const copies = runtime.instructions.filter((i) => i.op === 'COPY' && /node_modules/.test(i.args));
    expect(copies.length).toBeGreaterThan(0);
    for (const c of copies) expect(c.args).toContain(`--from=${deps.name}`);
  });

  test('runs on node:20-bookworm-slim as a user that is not root', () => {
    expect(runtime.from).toMatch(/^node:20-bookworm-slim$/);
    const users = runtime.instructions.filter((i) => i.op === 'USER').map((i) => i.args);
    expect(users.length).toBeGreaterThan(0);
    expect(users[users.length - 1]).not.toMatch(/^(root|0)(:|$)/);
  });

  test("checks health on /readyz with node's fetch, not curl", () => {
    const hc = runtime.instructions.find((i) => i.op === 'HEALTHCHECK');
    expect(hc).toBeDefined();
    expect(hc!.args).toMatch(/CMD\s+\["node"/);
    expect(hc!.args).toContain('fetch(');
    expect(hc!.args).toContain('/readyz');
    expect(hc!.args).not.toMatch(/curl|wget/);
  });

  test("starts what npm run start:prod starts, without npm in between", () => {
    const cmd = runtime.instructions.filter((i) => i.op === 'CMD');
    expect(cmd).toHaveLength(1);
    expect(words(cmd[0].args)).toEqual(startProd());
    expect(runtime.instructions.some((i) => i.op === 'ENV' && /\bWORKERS=/.test(i.args))).toBe(true);
  });

  test('every file it copies from the checkout exists and is not ignored', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l && !l.startsWith('#'));
    const stageNames = new Set(stages.map((s) => s.name));
    let checked = 0;
    for (const stage of stages) {
      for (const i of stage.instructions.filter((x) => x.op === 'COPY')) {
        const parts = i.args.split(/\s+/);
        const from = parts.find((p) => p.startsWith('--from='));
        const sources = parts.filter((p) => !p.startsWith('--')).slice(0, -1);
        if (from) {
          expect(stageNames).toContain(from.slice('--from='.length));
          // From another stage: what the build wrote, the production install, or a file of the checkout it copied.
          for (const src of sources) {
            const rel = src.replace(/^\/app\/?/, '');
            if (['build', 'dist', 'node_modules'].includes(rel)) continue;
            expect([src, fs.existsSync(path.join(ROOT, rel))]).toEqual([src, true]);
            checked++;
          }
          continue;
        }
        for (const src of sources) {
          if (src === '.') continue;
          expect([src, fs.existsSync(path.join(ROOT, src))]).toEqual([src, true]);
          expect([src, ignored.some((g) => g === src || src.startsWith(`${g}/`))]).toEqual([src, false]);
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(2);
  });

  test("the runtime holds every input start:prod checks against the build's record", () => {
    const { SETS } = require('../../scripts/build-manifest.cjs') as { SETS: Record<'server' | 'spa', { paths: string[] }> };
    const copied = runtime.instructions
      .filter((i) => i.op === 'COPY')
      .flatMap((i) => i.args.split(/\s+/).filter((p) => !p.startsWith('--')).slice(0, -1))
      .map((src) => src.replace(/^\/app\//, ''));
    for (const input of [...SETS.server.paths, ...SETS.spa.paths]) expect([input, copied.includes(input)]).toEqual([input, true]);
    for (const launcher of ['scripts/start-prod.cjs', 'scripts/build-manifest.cjs']) {
      expect(runtime.instructions.some((i) => i.op === 'COPY' && i.args.includes(launcher))).toBe(true);
    }
  });

  test('.dockerignore keeps what the host built and its secrets out of the build', () => {
    const ignored = read('.dockerignore').split('\n').map((l) => l.trim());
    for (const p of ['node_modules', 'dist', 'build', 'data', 'backups', '.git', '.env', '*.env', 'tls']) expect(ignored).toContain(p);
  });
});

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  env_file?: string[];
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  volumes?: string[];
  network_mode?: string;
}

describe('compose.yaml', () => {
  const compose = yaml.load(read('compose.yaml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
  const { services } = compose;

  test('has the app with WORKERS=2, PostgreSQL 16, Redis 7 and nginx, each with a healthcheck', () => {
    expect(Object.keys(services).sort()).toEqual(['app', 'db', 'nginx', 'redis']);
    expect(services.app.build).toBeDefined();
    expect(services.app.environment?.WORKERS).toBe('2');
    expect(services.db.image).toMatch(/^postgres:16\b/);
    expect(services.redis.image).toMatch(/^redis:7\b/);
    // Debian's nginx, the one test/e2e/proxy.e2e.ts runs deploy/nginx.conf with, in the app's network namespace
    // (the file's upstream is 127.0.0.1:3000).
    expect((services.nginx.build as { dockerfile_inline: string }).dockerfile_inline).toMatch(/FROM debian:bookworm[\s\S]*apt-get install[^\n]* nginx\b/);
    expect(services.nginx.network_mode).toBe('service:app');
    expect(read('deploy/nginx.conf')).toMatch(/server 127\.0\.0\.1:3000;/);
    expect(services.app.environment?.TRUST_PROXY).toBe('127.0.0.1');
    for (const [name, s] of Object.entries(services)) expect([name, s.healthcheck?.test]).toEqual([name, expect.anything()]);
    expect(JSON.stringify(services.app.healthcheck!.test)).toContain('/readyz');
  });

  test('the app starts once the database and Redis are healthy, with both configured and its secrets from a file', () => {
    expect(services.app.depends_on).toEqual({ db: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } });
    expect(services.nginx.depends_on).toEqual({ app: { condition: 'service_healthy' } });
    expect(services.app.environment?.REDIS_URL).toMatch(/^redis:\/\/redis:6379/);
    expect(services.app.env_file?.length).toBeGreaterThan(0);
    // No secret is written into the file itself.
    const env = JSON.stringify([services.app.environment, services.db.environment]);
    expect(env).not.toMatch(/SECRET|PASSWORD|TOKEN|DATABASE_URL/);
  });

  test('keeps the data, the backups and the database in named volumes; nginx uses deploy/nginx.conf', () => {
    for (const v of ['wallet-data', 'wallet-backups', 'pg-data']) expect(Object.keys(compose.volumes)).toContain(v);
    expect(services.app.volumes).toEqual(expect.arrayContaining(['wallet-data:/data', 'wallet-backups:/backups']));
    expect(services.nginx.volumes?.some((v) => v.startsWith('./deploy/nginx.conf:'))).toBe(true);
    expect(fs.existsSync(path.join(ROOT, 'deploy/nginx.conf'))).toBe(true);
  });
});

describe('deploy/wallet.service', () => {
  const unit = read('deploy/wallet.service');
  const settings = new Map<string, string[]>();
  for (const line of unit.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (m) settings.set(m[1], [...(settings.get(m[1]) ?? []), m[2]]);
  }
  const one = (key: string) => {
    expect([key, settings.get(key)?.length]).toEqual([key, 1]);
    return settings.get(key)![0];
  };

  test("ExecReload sends SIGHUP, the cluster primary's rolling restart", () => {
    expect(one('ExecReload')).toBe('/bin/kill -HUP $MAINPID');
    expect(read('server/cluster.ts')).toMatch(/process\.on\('SIGHUP', \(\) => void rollingRestart\(\)\)/);
  });

  test("ExecStart runs start:prod's launcher with node", () => {
    const [node, ...args] = one('ExecStart').split(/\s+/);
    const [, ...script] = startProd();
    expect(node).toBe('/usr/bin/node');
    expect(args).toEqual(script);
    expect(fs.existsSync(path.join(ROOT, script[script.length - 1]))).toBe(true);
  });

  test('runs as its own user with the hardening the doc names, and gives the graceful close its time', () => {
    expect(one('User')).not.toMatch(/^(root|0)$/);
    expect(one('EnvironmentFile')).toBe('/etc/wallet/wallet.env');
    expect(one('Restart')).toBe('on-failure');
    expect(Number(one('StartLimitBurst'))).toBeGreaterThan(0);
    expect(one('KillSignal')).toBe('SIGTERM');
    // The primary kills a worker that has not closed after 15 s; systemd must wait longer than that.
    const workerTimeout = /WORKER_CLOSE_TIMEOUT_MS = (\d+)_?(\d*)/.exec(read('server/cluster.ts'))!;
    expect(Number(one('TimeoutStopSec')) * 1000).toBeGreaterThan(Number(workerTimeout[1] + workerTimeout[2]));
    for (const [k, v] of [['NoNewPrivileges', 'yes'], ['ProtectSystem', 'strict'], ['ProtectHome', 'yes'], ['PrivateTmp', 'yes'], ['CapabilityBoundingSet', '']]) {
      expect([k, one(k)]).toEqual([k, v]);
    }
    expect(one('RestrictAddressFamilies')).toMatch(/AF_INET AF_INET6/);
    expect(Number(one('LimitNOFILE'))).toBeGreaterThanOrEqual(65536);
    // V8's JIT writes and then runs machine code: MemoryDenyWriteExecute would stop node at start.
    expect(settings.has('MemoryDenyWriteExecute')).toBe(false);
  });
});

interface AlertRule {
  alert: string;
  expr: string;
  for: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
}

/** PromQL words that are not metric names: functions, aggregations, operators, modifiers. */
const PROMQL_WORDS = new Set(['sum', 'min', 'max', 'avg', 'count', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'rate', 'irate', 'increase', 'histogram_quantile', 'max_over_time', 'min_over_time', 'avg_over_time', 'absent', 'offset', 'bool', 'time', 'le']);

/** The metric names a PromQL expression reads, with the label matchers written on each. */
function metricsOf(expr: string): { name: string; matchers: [string, string, string][] }[] {
  const out: { name: string; matchers: [string, string, string][] }[] = [];
  // Grouping clauses name labels, not metrics: `by (le)`, `on (job)`.
  const text = expr.replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ').replace(/\[[^\]]*\]/g, ' ');
  for (const m of text.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?(\s*\()?/g)) {
    const [, name, selector, call] = m;
    if (call || PROMQL_WORDS.has(name) || /^\d/.test(name)) continue;
    const matchers = [...(selector ?? '').matchAll(/([a-zA-Z_]\w*)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)].map((x) => [x[1], x[2], x[3]] as [string, string, string]);
    out.push({ name, matchers });
  }
  return out;
}

describe('deploy/alerts.yml', () => {
  const rules = (yaml.load(read('deploy/alerts.yml')) as { groups: { name: string; rules: AlertRule[] }[] }).groups.flatMap((g) => g.rules);
  let t: TestApp;
  let app: FastifyInstance;
  /** Sample name -> the label sets it is served with, and each sample's value. */
  const served = new Map<string, Record<string, string>[]>();
  const values = new Map<string, number>();
  /** The families the scrape declares (# TYPE), with their type: a gauge set only later has no sample yet. */
  const families = new Map<string, string>();

  beforeAll(async () => {
    t = await buildTestApp({ METRICS_TOKEN: 'deploy-files-test-metrics-token-0123' });
    app = t.app;
    // An open review two hours old: the kind the reviews-waiting alert reads.
    const at = new Date(Date.now() - 2 * 3600_000).toISOString();
    await t.db.db
      .insertInto('payment_reviews')
      .values({ id: 'rev_deployfilestest', kind: 'UNKNOWN_REFERENCE', source: 'webhook', reference: 'ref-1', event_id: 'evt-1', subject_id: null, player_id: null, amount: 10_000, currency: 'THB', status: 'OPEN', decided_by: null, decided_at: null, reason: null, created_at: at, updated_at: at })
      .execute();
    // A histogram serves samples once it observed something: one answer of each kind the alerts read.
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/api/no/such/route', headers: { accept: 'application/json' } });
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: 'Bearer deploy-files-test-metrics-token-0123' } });
    expect(res.statusCode).toBe(200);
    for (const line of res.body.split('\n')) {
      const t = /^# TYPE ([a-zA-Z_:][\w:]*) (\w+)$/.exec(line);
      if (t) families.set(t[1], t[2]);
      const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!m) continue;
      const labels: Record<string, string> = {};
      for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
      served.set(m[1], [...(served.get(m[1]) ?? []), labels]);
      values.set(`${m[1]}${JSON.stringify(labels)}`, Number(m[3]));
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  test('has the six alerts of issue 44, each complete', () => {
    const names = rules.map((r) => r.alert);
    for (const n of ['WalletHigh5xxRate', 'WalletSlowP99', 'WalletPayoutsOverdue', 'WalletReviewsWaiting', 'WalletJobLeaseNotHeld', 'WalletDataDiskLow']) expect(names).toContain(n);
    for (const r of rules) {
      expect([r.alert, typeof r.expr, r.for, r.labels?.severity, typeof r.annotations?.summary]).toEqual([r.alert, 'string', expect.stringMatching(/^\d+[smh]$/), expect.stringMatching(/^(page|warn)$/), 'string']);
    }
  });

  test('reads only metrics the app serves on /metrics, with labels and kinds it serves', () => {
    let seen = 0;
    for (const r of rules) {
      const used = metricsOf(r.expr);
      expect([r.alert, used.length > 0]).toEqual([r.alert, true]);
      for (const { name, matchers } of used) {
        seen++;
        const family = name.replace(/_(bucket|count|sum)$/, '');
        const declared = families.get(name) ?? (families.get(family) === 'histogram' ? 'histogram' : undefined);
        expect([r.alert, name, declared !== undefined]).toEqual([r.alert, name, true]);
        const sets = served.get(name) ?? [];
        // A gauge a real adapter sets (the provider breakers' wallet_provider_circuit_open) has no sample on the
        // simulators: its name is checked, its labels only where the app served them.
        if (!sets.length && families.get(name) === 'gauge' && !matchers.some(([l]) => l === 'kind')) continue;
        expect([r.alert, name, sets.length > 0]).toEqual([r.alert, name, true]);
        for (const [label, op, value] of matchers) {
          // Every label an alert matches on is one the metric carries ...
          expect([r.alert, name, label, sets.some((s) => label in s)]).toEqual([r.alert, name, label, true]);
          // ... and a kind it asks for exactly (the pending gauges) is one the app reports.
          if (label === 'kind' && op === '=') expect([r.alert, name, value, sets.some((s) => s.kind === value)]).toEqual([r.alert, name, value, true]);
        }
      }
    }
    expect(seen).toBeGreaterThanOrEqual(rules.length);
  });

  test('the gauges the new alerts read: open reviews and their age, free bytes on the data disk', async () => {
    expect(values.get('wallet_pending{"kind":"review"}')).toBe(1);
    expect(values.get('wallet_pending_oldest_age_seconds{"kind":"review"}')).toBeGreaterThanOrEqual(2 * 3600 - 60);
    const free = values.get('wallet_data_disk_free_bytes{}');
    const s = await fs.promises.statfs(app.config.dataDir);
    const now = Number(s.bavail) * Number(s.bsize);
    expect(free).toBeGreaterThan(0);
    expect(Math.abs(free! - now)).toBeLessThan(Math.max(now * 0.05, 256 * 1024 * 1024));
  });

  test('the metric-name reader finds names and skips functions, groupings and numbers', () => {
    expect(metricsOf('histogram_quantile(0.99, sum by (le) (rate(a_bucket{route!~"x|y"}[5m]))) > 1 and sum(b) > 2 * 1024')).toEqual([
      { name: 'a_bucket', matchers: [['route', '!~', 'x|y']] },
      { name: 'b', matchers: [] },
    ]);
  });
});
