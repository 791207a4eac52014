// @ts-check
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS: the production launcher loads it with plain node */
'use strict';
/**
 * What a production build was made from, and whether the checkout still holds exactly that (docs/server.md
 * "Production build"). scripts/build.mjs writes build/server/manifest.json with it; scripts/start-prod.cjs refuses
 * to start when the build is missing or the sources differ from it. Plain CommonJS with no dependency, so a
 * production install (npm ci --omit=dev) can run it.
 */
const fs = require('node:fs');
const path = require('node:path');
const crypto = require('node:crypto');

/** Where the build lives, relative to the repository root. */
const BUILD_DIR = path.join('build', 'server');
const MANIFEST = path.join(BUILD_DIR, 'manifest.json');
/** The compiled entry point that start-prod.cjs runs. */
const ENTRY = path.join(BUILD_DIR, 'server', 'start.js');
/** How far before the build's reading a modification time must be to be taken without hashing (see checkBuild). */
const MTIME_SLACK_MS = 2000;

/** The server's inputs: its sources and shared/ (test files and server/test/ aside), and the lockfile. */
const SERVER_INPUTS = ['server', 'shared', 'package-lock.json'];
const SERVER_IGNORED = [path.join('server', 'test')];
/** The SPA build's inputs: server/spa-build.ts INPUTS and IGNORED (a test keeps the two lists equal). */
const SPA_INPUTS = ['src', 'shared', 'locales', 'public', 'webpack.config.ts'];
const SPA_IGNORED = [path.join('public', 'games'), path.join('public', 'media')];

const isTest = (/** @type {string} */ rel) => /\.test\.[cm]?[jt]sx?$/.test(rel);
const serverFile = (/** @type {string} */ rel) => rel === 'package-lock.json' || (/\.(?:ts|cjs)$/.test(rel) && !isTest(rel));
const spaFile = (/** @type {string} */ rel) => !isTest(rel) && !rel.startsWith('src/test/');

/**
 * @typedef {{ paths: string[], ignored: string[], keep: (rel: string) => boolean }} InputSet
 * @typedef {{ sha256: string, readAt: number, files: Record<string, string> }} InputsRecord
 * @typedef {{ builtAt: string, node: string, server: InputsRecord, spa: InputsRecord | null }} Manifest
 */
/** @type {{ server: InputSet, spa: InputSet }} */
const SETS = {
  server: { paths: SERVER_INPUTS, ignored: SERVER_IGNORED, keep: serverFile },
  spa: { paths: SPA_INPUTS, ignored: SPA_IGNORED, keep: spaFile },
};

/**
 * The input files of a set under `root` (relative, '/'-separated, sorted) and the newest modification time among
 * them and their folders (a folder's changes when a file in it is added or removed).
 * @param {string} root
 * @param {InputSet} set
 * @returns {{ files: string[], newest: number }}
 */
function listInputs(root, set) {
  /** @type {string[]} */
  const files = [];
  let newest = 0;
  const skip = new Set(set.ignored.map((p) => path.join(root, p)));
  /** @param {string} abs */
  const walk = (abs) => {
    if (skip.has(abs)) return;
    let st;
    try {
      st = fs.statSync(abs);
    } catch {
      return;
    }
    if (st.isDirectory()) {
      if (st.mtimeMs > newest) newest = st.mtimeMs;
      for (const name of fs.readdirSync(abs)) walk(path.join(abs, name));
      return;
    }
    const rel = path.relative(root, abs).split(path.sep).join('/');
    if (!set.keep(rel)) return;
    files.push(rel);
    if (st.mtimeMs > newest) newest = st.mtimeMs;
  };
  for (const p of set.paths) walk(path.join(root, p));
  files.sort();
  return { files, newest };
}

/**
 * Each file's sha256 and one sha256 over every path and content, in order.
 * @param {string} root
 * @param {string[]} files
 * @returns {{ sha256: string, files: Record<string, string> }}
 */
function hashFiles(root, files) {
  const all = crypto.createHash('sha256');
  /** @type {Record<string, string>} */
  const each = {};
  for (const rel of files) {
    const bytes = fs.readFileSync(path.join(root, rel));
    each[rel] = crypto.createHash('sha256').update(bytes).digest('hex');
    all.update(rel).update('\0').update(String(bytes.length)).update('\0').update(bytes);
  }
  return { sha256: all.digest('hex'), files: each };
}

/**
 * Hashes a set's inputs now; `readAt` (taken before reading) lets a later check skip hashing when nothing is newer.
 * @param {string} root
 * @param {'server' | 'spa'} which
 * @returns {InputsRecord}
 */
function recordInputs(root, which) {
  const readAt = Date.now();
  const { files } = listInputs(root, SETS[which]);
  return { readAt, ...hashFiles(root, files) };
}

/**
 * @param {string} root
 * @param {{ server: InputsRecord, spa: InputsRecord | null }} records
 * @returns {Manifest}
 */
function writeManifest(root, records) {
  /** @type {Manifest} */
  const manifest = { builtAt: new Date().toISOString(), node: process.version, server: records.server, spa: records.spa };
  fs.mkdirSync(path.join(root, BUILD_DIR), { recursive: true });
  fs.writeFileSync(path.join(root, MANIFEST), JSON.stringify(manifest, null, 1) + '\n');
  return manifest;
}

/**
 * @param {string} root
 * @returns {Manifest | null}
 */
function readManifest(root) {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, MANIFEST), 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The first difference between the recorded files and the checkout's, in words ("server/app.ts changed").
 * @param {Record<string, string>} was
 * @param {Record<string, string>} now
 * @returns {string}
 */
function firstDifference(was, now) {
  for (const rel of Object.keys(now)) {
    if (!(rel in was)) return `${rel} is new`;
    if (was[rel] !== now[rel]) return `${rel} changed`;
  }
  for (const rel of Object.keys(was)) if (!(rel in now)) return `${rel} is gone`;
  return 'the inputs differ';
}

/**
 * Whether the checkout at `root` holds what its build was made from. Inputs no newer than when the build read
 * them are taken as they were (no hashing); otherwise they are hashed and compared, so a copy that did not keep
 * modification times still passes, and a touched but unchanged file too.
 * @param {string} root
 * @param {{ distDir?: string, serverOnly?: boolean }} [opts] the served SPA (DIST_DIR; default root/dist); serverOnly:
 *   the operator's CLIs, which serve no SPA, check the compiled server alone
 * @returns {{ ok: true, hashed: string[] } | { ok: false, reason: string }}
 */
function checkBuild(root, opts = {}) {
  const run = 'run `npm run build`';
  if (!fs.existsSync(path.join(root, ENTRY))) return { ok: false, reason: `no compiled server (${ENTRY} is missing); ${run} first` };
  const manifest = readManifest(root);
  if (!manifest?.server) return { ok: false, reason: `${MANIFEST} is missing or unreadable; ${run} first` };
  if (!opts.serverOnly) {
    const distDir = opts.distDir ?? path.join(root, 'dist');
    if (!fs.existsSync(path.join(distDir, 'index.html'))) return { ok: false, reason: `no built SPA (${path.join(path.relative(root, distDir) || '.', 'index.html')} is missing); ${run} first` };
    if (!manifest.spa) return { ok: false, reason: `the build did not record the SPA's sources (built with --server-only before any SPA build); ${run}` };
  }
  /** @type {string[]} */
  const hashed = [];
  for (const which of /** @type {const} */ (opts.serverOnly ? ['server'] : ['server', 'spa'])) {
    const recorded = /** @type {InputsRecord} */ (manifest[which]);
    const { files, newest } = listInputs(root, SETS[which]);
    // A file's modification time comes from the kernel's coarse clock, which may lag Date.now() by a few ms: a file
    // written just after readAt can look older. Anything within MTIME_SLACK_MS of it is hashed, not trusted.
    if (newest < recorded.readAt - MTIME_SLACK_MS && files.length === Object.keys(recorded.files).length) continue;
    hashed.push(which);
    const now = hashFiles(root, files);
    if (now.sha256 !== recorded.sha256) {
      const what = which === 'server' ? 'the server' : 'the SPA';
      return { ok: false, reason: `${firstDifference(recorded.files, now.files)} since the last build of ${what}; ${run}` };
    }
  }
  return { ok: true, hashed };
}

module.exports = { BUILD_DIR, MANIFEST, ENTRY, SETS, SPA_INPUTS, SPA_IGNORED, listInputs, hashFiles, recordInputs, writeManifest, readManifest, checkBuild };
