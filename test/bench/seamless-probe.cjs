/**
 * Where a seamless callback's time goes, inside the app (issue 42 "Performance"): loaded into the app's process by the
 * seamless phase when BENCH_SEAMLESS_PROBE=1 (node --require, test/bench/seamless.ts), never by the app itself.
 * It counts and times every statement sent to the database (pg's Client#query from the call to its answer,
 * better-sqlite3's statements as they step), the waits for a pooled PostgreSQL connection (pg's Pool#connect), and
 * the event loop's busy share and delay (sampled every 1 ms; a delay figure includes that 1 ms). SIGUSR2 starts a window (counters reset); the next SIGUSR2 writes the
 * window's figures as JSON to BENCH_PROBE_FILE. SIGUSR1 is Node's inspector signal, hence USR2.
 * A figure of the bench, not of production: the wrappers add a little time of their own to each statement.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS: node --require loads it into the app before tsx */
'use strict';
const fs = require('node:fs');
const { monitorEventLoopDelay, performance } = require('node:perf_hooks');

const now = () => Number(process.hrtime.bigint()) / 1e6;
let stats = new Map();
let poolWaits = [];
let open = false;
let elu = performance.eventLoopUtilization();
const delay = monitorEventLoopDelay({ resolution: 1 });

/**
 * A statement's family: its verb and main table (subqueries taken out first, so a select with scalar subqueries is
 * named by its own FROM), and FOR UPDATE when it locks, so one shape of query is one line of the report.
 */
function family(text) {
  let s = String(text).replace(/\s+/g, ' ').trim();
  const verb = (/^(\w+)/.exec(s) || ['', '?'])[1].toLowerCase();
  if (verb === 'begin' || verb === 'commit' || verb === 'rollback' || verb === 'savepoint' || verb === 'release') return verb;
  for (let before = ''; before !== s; ) {
    before = s;
    s = s.replace(/\([^()]*\)/g, '');
  }
  const table = (/\b(?:from|into|update)\s+"?(\w+)"?/i.exec(s) || ['', ''])[1];
  return `${verb} ${table}${/\bfor update\b/i.test(s) ? ' for update' : ''}`.trim();
}

function record(text, ms) {
  if (!open) return;
  const k = family(text);
  let s = stats.get(k);
  if (!s) stats.set(k, (s = { n: 0, ms: 0, max: 0 }));
  s.n++;
  s.ms += ms;
  if (ms > s.max) s.max = ms;
}

try {
  const pg = require('pg');
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (config, ...rest) {
    const text = typeof config === 'string' ? config : config && config.text;
    const start = now();
    const r = query.call(this, config, ...rest);
    if (r && typeof r.then === 'function') r.then(() => record(text, now() - start), () => record(text, now() - start));
    return r;
  };
  const connect = pg.Pool.prototype.connect;
  pg.Pool.prototype.connect = function (cb) {
    const start = now();
    const r = connect.call(this, cb);
    if (r && typeof r.then === 'function') r.then(() => open && poolWaits.push(now() - start), () => undefined);
    return r;
  };
} catch {
  // no pg: SQLite only
}

try {
  const Database = require('better-sqlite3');
  const proto = Object.getPrototypeOf(new Database(':memory:').prepare('select 1'));
  for (const m of ['run', 'all', 'get', 'iterate']) {
    const orig = proto[m];
    proto[m] = function (...a) {
      const start = now();
      try {
        return orig.apply(this, a);
      } finally {
        record(this.source, now() - start);
      }
    };
  }
} catch {
  // no better-sqlite3
}

process.on('SIGUSR2', () => {
  if (!open) {
    stats = new Map();
    poolWaits = [];
    elu = performance.eventLoopUtilization();
    delay.reset();
    delay.enable();
    open = true;
    return;
  }
  open = false;
  delay.disable();
  const busy = performance.eventLoopUtilization(elu);
  const waits = poolWaits.sort((a, b) => a - b);
  const at = (q) => (waits.length ? waits[Math.min(waits.length - 1, Math.floor(q * waits.length))] : 0);
  const out = {
    statements: [...stats].map(([k, s]) => ({ family: k, n: s.n, ms: s.ms, max: s.max })).sort((a, b) => b.ms - a.ms),
    poolWaits: { n: waits.length, p50: at(0.5), p99: at(0.99), max: waits.length ? waits[waits.length - 1] : 0 },
    eventLoop: { utilization: busy.utilization, delayP50: delay.percentile(50) / 1e6, delayP99: delay.percentile(99) / 1e6, delayMax: delay.max / 1e6 },
  };
  fs.writeFileSync(process.env.BENCH_PROBE_FILE, JSON.stringify(out));
});
