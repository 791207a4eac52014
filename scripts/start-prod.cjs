// @ts-check
/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS: run by plain node in a production install */
'use strict';
/**
 * `npm run start:prod`: the compiled server (build/server/, written by `npm run build`) with plain node, no
 * devDependency (docs/server.md "Production build"). It never builds: a missing build, a missing dist/index.html
 * or sources that differ from what the build recorded stop it with one line and exit 1.
 * Cluster workers (WORKERS > 1) run this file again: the primary checked already.
 */
const cluster = require('node:cluster');
const path = require('node:path');
const { ENTRY, checkBuild } = require('./build-manifest.cjs');

const ROOT = path.resolve(__dirname, '..');

if (cluster.isPrimary) {
  const distDir = process.env.DIST_DIR ? path.resolve(process.env.DIST_DIR) : undefined;
  const verdict = checkBuild(ROOT, { distDir });
  if (!verdict.ok) {
    console.error(`Cannot start: ${verdict.reason}`);
    process.exit(1);
  }
}
require(path.join(ROOT, ENTRY));
