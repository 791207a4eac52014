import { parentPort } from 'node:worker_threads';
import { SlipReadError, readSlip } from './domain/slip-qr';
import type { SlipJob, SlipJobResult } from './slip-pool';

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
