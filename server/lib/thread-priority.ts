import fs from 'node:fs';
import os from 'node:os';

/** The nice value background threads take (0 is the request thread's; 19 the lowest priority). */
export const BACKGROUND_NICE = 10;

/**
 * Lowers the calling thread's CPU priority, and only that thread's: on Linux a thread is a task with its own id
 * (`/proc/thread-self`) and nice value, which setpriority(2) sets for that task alone. Raising a nice value needs no
 * privilege. Returns the thread's id, or undefined where it cannot (another system, no /proc): the thread then keeps
 * its priority, which is correct, only less kind to the request thread.
 */
export function lowerThisThreadPriority(nice: number = BACKGROUND_NICE): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return undefined;
    os.setPriority(tid, nice);
    return tid;
  } catch {
    return undefined;
  }
}
