import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { SlipReadError, readSlip, type SlipQr, type SlipReadFailure } from './domain/slip-qr';

/**
 * Reading a slip costs about 0.2 s of CPU (JPEG/PNG decoding and the QR search): done on the request thread, ten
 * uploads a second would stall every other request (issue 13). The pool reads slips on worker threads, one slip per
 * thread at a time, the others waiting in order; the request thread only copies the bytes over and awaits the answer.
 *
 * Threads start with the first slips and stay. A thread that dies (a bug, out of memory) fails only the slip it held
 * (an Error, so the upload answers 500 and nothing is written) and is replaced. `threads: 0` reads on the calling thread (one-off scripts).
 */
export interface SlipReader {
  /** The slip's mini-QR; rejects with SlipReadError (the reason code) like readSlip. */
  read(bytes: Buffer, maxBytes: number): Promise<SlipQr>;
  close(): Promise<void>;
}

/** Sent to a thread: a copy of the bytes (transferred, not shared). */
export interface SlipJob {
  id: number;
  bytes: ArrayBuffer;
  maxBytes: number;
}

export type SlipJobResult = { id: number; ok: true; slip: SlipQr } | { id: number; ok: false; code: SlipReadFailure } | { id: number; ok: false; error: string };

/** One thread per spare core, at least one, at most four: SLIP_WORKERS overrides (0: no threads). */
export function slipThreadsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.SLIP_WORKERS;
  if (v === undefined || v === '') return Math.min(4, Math.max(1, os.availableParallelism() - 1));
  if (!/^\d{1,2}$/.test(v) || Number(v) > 16) throw new Error(`SLIP_WORKERS must be a whole number from 0 to 16, got "${v}"`);
  return Number(v);
}

const WORKER_FILE = path.join(__dirname, 'slip-worker.cjs');

interface Pending {
  job: SlipJob;
  resolve(slip: SlipQr): void;
  reject(e: Error): void;
}

export function createSlipReader({ threads }: { threads: number }): SlipReader {
  if (threads === 0) {
    return { read: async (bytes, maxBytes) => readSlip(bytes, maxBytes), close: async () => undefined };
  }
  let nextId = 1;
  let closed = false;
  const queue: Pending[] = [];
  const idle: Worker[] = [];
  const busy = new Map<Worker, Pending>();
  const all = new Set<Worker>();

  const dispatch = () => {
    // Threads start with the first slips (most processes and test apps never read one), up to `threads`.
    while (queue.length > idle.length && all.size < threads && !closed) spawn();
    while (idle.length && queue.length) {
      const worker = idle.pop()!;
      const p = queue.shift()!;
      busy.set(worker, p);
      worker.postMessage(p.job, [p.job.bytes]);
    }
  };

  const spawn = () => {
    const worker = new Worker(WORKER_FILE);
    all.add(worker);
    worker.unref();
    worker.on('message', (r: SlipJobResult) => {
      const p = busy.get(worker);
      busy.delete(worker);
      idle.push(worker);
      if (p && p.job.id === r.id) {
        if (r.ok) p.resolve(r.slip);
        else if ('code' in r) p.reject(new SlipReadError(r.code));
        else p.reject(new Error(`slip reader: ${r.error}`));
      }
      dispatch();
    });
    const lost = (why: string) => {
      if (!all.delete(worker)) return;
      const p = busy.get(worker);
      busy.delete(worker);
      const i = idle.indexOf(worker);
      if (i >= 0) idle.splice(i, 1);
      p?.reject(new Error(`slip reader thread stopped: ${why}`));
      // Replaced when slips wait (dispatch starts one), otherwise with the next slip.
      if (!closed) dispatch();
    };
    worker.on('error', (e) => lost(e.message));
    worker.on('exit', (code) => lost(`exit ${code}`));
    idle.push(worker);
  };

  const reader: SlipReader & { threadsForTest(): Worker[] } = {
    threadsForTest: () => [...all],
    read(bytes, maxBytes) {
      if (closed) return Promise.reject(new Error('the slip reader is closed'));
      // A copy of its own, so the transfer never detaches a buffer Node pools for other uploads.
      const copy = new Uint8Array(bytes.length);
      copy.set(bytes);
      return new Promise<SlipQr>((resolve, reject) => {
        queue.push({ job: { id: nextId++, bytes: copy.buffer, maxBytes }, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closed = true;
      for (const p of queue.splice(0)) p.reject(new Error('the slip reader is closed'));
      await Promise.all([...all].map((w) => w.terminate()));
    },
  };
  return reader;
}
