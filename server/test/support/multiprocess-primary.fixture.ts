/** The cluster primary of server/cluster.test.ts, running stand-in workers (multiprocess-worker.fixture.ts). */
import cluster from 'node:cluster';
import path from 'node:path';
import { runPrimary } from '../../cluster';

cluster.setupPrimary({ exec: path.join(__dirname, 'multiprocess-worker.fixture.ts'), execArgv: ['--import', 'tsx'] });
runPrimary(Number(process.env.WORKERS ?? 2)).then(
  ({ url }) => console.log(`listening on ${url}`),
  (e: unknown) => {
    console.error(`Cannot start: ${(e as Error).message}`);
    process.exit(1);
  },
);
