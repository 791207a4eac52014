/** `node --import tsx test/bench/server-only.ts`: the bench's server section alone (test/bench/server.ts). */
import { measureServer } from './server';

measureServer().then(
  (r) => {
    console.log(r.lines.join('\n'));
    process.exit(r.ok ? 0 : 1);
  },
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
