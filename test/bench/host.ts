import fs from 'node:fs';

/**
 * What this machine charges for entering its kernel: a first write to fresh memory (a page fault) and a plain system
 * call. Both are expensive under this machine kind's hypervisor, and by how much varies between machines of the kind.
 * A browser leans on them far more than a JavaScript loop does (a new renderer for each Lighthouse run, heaps grown
 * as the page loads, messages between its processes), so a first-screen figure read without them can mislead:
 * Lighthouse's own host figure (benchmarkIndex) times JavaScript only. docs/client.md "Reading the figures" has the
 * day they were high and what Lighthouse showed then.
 */
const PAGE = 4096;

/** Microseconds per 4 KB page for the first write to `mb` MB of fresh memory: the median of `runs` tries. */
export function pageFaultMicros(mb = 64, runs = 3): number {
  const tries: number[] = [];
  for (let r = 0; r < runs; r++) {
    // allocUnsafeSlow: memory straight from the system (a fresh mapping of this size), not a recycled pool.
    const buffer = Buffer.allocUnsafeSlow(mb * 1024 * 1024);
    const start = process.hrtime.bigint();
    for (let i = 0; i < buffer.length; i += PAGE) buffer[i] = 1;
    const ns = Number(process.hrtime.bigint() - start);
    tries.push(ns / 1000 / (buffer.length / PAGE));
  }
  return tries.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/** Microseconds per fstat(2) of an open file: about the cheapest system call there is. */
export function syscallMicros(calls = 100_000): number {
  const fd = fs.openSync(__filename, 'r');
  try {
    const start = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) fs.fstatSync(fd);
    return Number(process.hrtime.bigint() - start) / 1000 / calls;
  } finally {
    fs.closeSync(fd);
  }
}

/** The bench's line: the two kernel costs, and Lighthouse's own host figure when it ran. */
export function hostLine(benchmarkIndex?: number): string {
  const index = benchmarkIndex === undefined ? '' : `; Lighthouse's benchmarkIndex ${Math.round(benchmarkIndex)} (JavaScript only)`;
  return `host: a page fault ${pageFaultMicros().toFixed(1)} us, a system call ${syscallMicros().toFixed(2)} us${index} (docs/client.md "Reading the figures")`;
}
