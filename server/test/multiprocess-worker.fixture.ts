/**
 * A stand-in worker for server/cluster.test.ts: a plain HTTP server on the shared port that answers its pid, tells
 * the primary it listens, and on the primary's close message closes and exits 0, as server/server.ts does.
 * FAIL_START=1, or the file FAIL_START_IF names exists: it exits 1 before listening (a worker that cannot start).
 */
import fs from 'node:fs';
import http from 'node:http';
import { CLOSE_MESSAGE, reportReady } from '../cluster';

if (process.env.FAIL_START === '1' || (process.env.FAIL_START_IF && fs.existsSync(process.env.FAIL_START_IF))) {
  console.error('fixture worker: cannot start');
  process.exit(1);
}
const server = http.createServer((_req, res) => res.end(String(process.pid)));
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const address = server.address();
  reportReady(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
});
process.on('message', (m) => {
  if (m !== CLOSE_MESSAGE) return;
  server.close(() => process.exit(0));
  server.closeIdleConnections();
});
