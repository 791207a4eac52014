/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS entry, started by a worker thread */
// The slip pool's thread (slip-pool.ts) under tsx: plain CommonJS so a worker thread can start it without the tsx
// loader the main thread runs under; it registers tsx and loads the TypeScript worker. The compiled server
// (npm run start:prod) starts the compiled slip-worker-main.js instead: this file is not part of the build.
require('tsx/cjs/api').register();
require('./slip-worker-main.ts');
