import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { COMPILED } from '../../lib/paths';
import { SlipReadError, readSlip, type SlipQr, type SlipReadFailure } from './domain/slip-qr';

/**
 * Reading a slip costs about 0.2 s of CPU (JPEG/PNG decoding and the QR search): done on the request thread, ten
 * uploads a second would stall every other request (issue 13). The pool reads slips on worker threads, one slip per
 * thread at a time, the others waiting in order; the request thread only copies the bytes over and awaits the answer.
 *
 * Threads start with the first slips and stay. A thread that dies (a bug, out of memory) fails only the slip it held
 * (an Error, so the upload answers 500 and nothing is written) and is replaced. `threads: 0` reads on the calling thread (one-off scripts).
 *
 * Bounded (issue 39 row 2): each thread runs under V8 resourceLimits (a thread past its heap is stopped, and only its
 * slip fails), and at most `queueMax` slips wait for a thread; one more is refused at once with SlipReaderBusy (the
 * upload answers 503 UPLOAD_UNAVAILABLE) rather than piling bytes up in memory behind a flood of uploads.
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

/** The pool's queue is full: refused before the slip is queued. */
export class SlipReaderBusy extends Error {
  constructor() {
    super('the slip readers are busy');
    this.name = 'SlipReaderBusy';
  }
}

export type SlipJobResult = { id: number; ok: true; slip: SlipQr } | { id: number; ok: false; code: SlipReadFailure } | { id: number; ok: false; error: string };

/** One thread per spare core, at least one, at most four: SLIP_WORKERS overrides (0: no threads). */
export function slipThreadsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.SLIP_WORKERS;
  if (v === undefined || v === '') return Math.min(4, Math.max(1, os.availableParallelism() - 1));
  if (!/^\d{1,2}$/.test(v) || Number(v) > 16) throw new Error(`SLIP_WORKERS must be a whole number from 0 to 16, got "${v}"`);
  return Number(v);
}

export interface SlipPoolOptions {
  threads: number;
  /** Slips that may wait for a thread (SLIP_QUEUE_MAX) [16]. */
  queueMax?: number;
  /** Each thread's V8 old-generation heap, MB (SLIP_WORKER_MEMORY_MB) [256]. */
  memoryMb?: number;
}

export const DEFAULT_SLIP_QUEUE_MAX = 16;
export const DEFAULT_SLIP_WORKER_MEMORY_MB = 256;

const wholeNumber = (env: NodeJS.ProcessEnv, name: string, min: number, max: number, fallback: number): number => {
  const v = env[name];
  if (v === undefined || v === '') return fallback;
  if (!/^\d{1,5}$/.test(v) || Number(v) < min || Number(v) > max) throw new Error(`${name} must be a whole number from ${min} to ${max}, got "${v}"`);
  return Number(v);
};

/** The pool's settings from the environment: SLIP_WORKERS, SLIP_QUEUE_MAX (0-1000), SLIP_WORKER_MEMORY_MB (64-4096). */
export function slipPoolFromEnv(env: NodeJS.ProcessEnv = process.env): SlipPoolOptions {
  return {
    threads: slipThreadsFromEnv(env),
    queueMax: wholeNumber(env, 'SLIP_QUEUE_MAX', 0, 1000, DEFAULT_SLIP_QUEUE_MAX),
    memoryMb: wholeNumber(env, 'SLIP_WORKER_MEMORY_MB', 64, 4096, DEFAULT_SLIP_WORKER_MEMORY_MB),
  };
}

// Under tsx a thread starts without its loader, so slip-worker.cjs registers it first; compiled (npm run start:prod),
// the worker is plain JavaScript already and tsx is not installed.
const WORKER_FILE = path.join(__dirname, COMPILED ? 'slip-worker-main.js' : 'slip-worker.cjs');

interface Pending {
  job: SlipJob;
  resolve(slip: SlipQr): void;
  reject(e: Error): void;
}

export function createSlipReader({ threads, queueMax = DEFAULT_SLIP_QUEUE_MAX, memoryMb = DEFAULT_SLIP_WORKER_MEMORY_MB }: SlipPoolOptions): SlipReader {
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
    // The young generation and the stack stay small: a slip's pixels are typed arrays, its objects few.
    const worker = new Worker(WORKER_FILE, { resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 } });
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
      // Waiting slips beyond the idle and not yet started threads: the queue is full.
      if (queue.length - idle.length - (threads - all.size) >= queueMax) return Promise.reject(new SlipReaderBusy());
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
