import { parentPort } from 'node:worker_threads';
import { lowerThisThreadPriority } from '../../lib/thread-priority';
import { SlipReadError, readSlip } from './domain/slip-qr';
import type { SlipJob, SlipJobResult } from './slip-pool';

// Reading slips yields the CPU to the request thread (issue 13: wallet reads keep their p99 while slips are read).
// Under contention a slip waits a little longer; when cores are free it runs as fast as before.
lowerThisThreadPriority();

/** One slip at a time: bytes in, the mini-QR or the reason code out (slip-pool.ts). */
parentPort!.on('message', (job: SlipJob) => {
  let result: SlipJobResult;
  try {
    result = { id: job.id, ok: true, slip: readSlip(Buffer.from(job.bytes), job.maxBytes) };
  } catch (e) {
    result = e instanceof SlipReadError ? { id: job.id, ok: false, code: e.code } : { id: job.id, ok: false, error: String((e as Error)?.message ?? e) };
  }
  parentPort!.postMessage(result);
});
