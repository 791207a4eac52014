/**
 * A stand-in worker for server/cluster.test.ts: a plain HTTP server on the shared port that answers its pid, tells
 * the primary it listens, and on the primary's close message closes and exits 0, as server/server.ts does.
 * FAIL_START=1, or the file FAIL_START_IF names exists: it exits 1 before listening (a worker that cannot start).
 */
import fs from 'node:fs';
import http from 'node:http';
import { CLOSE_MESSAGE, reportReady } from '../../cluster';

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
  // Exit a moment after the server closed, not at once: the primary may have handed this worker a connection just
  // before it learned of the close; the worker answers such a handoff "not accepted" and the primary gives it to
  // another worker. A worker that exits first never answers, and that connection hangs for good (a CI run's
  // journey hung on it). server/server.ts drains before it exits, so it answers them too.
  server.close(() => setTimeout(() => process.exit(0), 250));
  server.closeIdleConnections();
});
