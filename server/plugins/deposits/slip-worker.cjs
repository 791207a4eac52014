/* eslint-disable @typescript-eslint/no-require-imports -- a plain CommonJS entry, started by a worker thread */
// The slip pool's thread (slip-pool.ts): plain CommonJS so a worker thread can start it without the tsx loader the
// main thread runs under; it registers tsx and loads the TypeScript worker.
require('tsx/cjs/api').register();
require('./slip-worker-main.ts');
