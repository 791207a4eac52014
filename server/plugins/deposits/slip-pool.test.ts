import { makeSlipJpeg, makeSlipPng } from './domain/slip-image';
import { MAX_SLIP_BYTES, readSlip, SlipReadError } from './domain/slip-qr';
import { createSlipReader, slipPoolFromEnv, slipThreadsFromEnv, SlipReaderBusy, type SlipReader } from './slip-pool';

// The request thread's decoder, counted (worker threads load their own copy, which this does not touch).
jest.mock('./domain/slip-qr', () => {
  const actual = jest.requireActual<typeof import('./domain/slip-qr')>('./domain/slip-qr');
  return { ...actual, readSlip: jest.fn(actual.readSlip) };
});

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'no error',
    (e: unknown) => (e instanceof SlipReadError ? e.code : `other: ${(e as Error).message}`),
  );

describe('the slip reader threads', () => {
  let reader: SlipReader;
  beforeAll(() => {
    reader = createSlipReader({ threads: 2 });
  });
  afterAll(() => reader.close());

  test('read slips on worker threads, several at once, each answer for its own slip', async () => {
    const refs = Array.from({ length: 6 }, (_, i) => `POOLREF${String(i).padStart(6, '0')}`);
    const files = refs.map((transRef, i) => (i % 2 ? makeSlipJpeg({ sendingBank: '014', transRef, amountSatang: 100 }) : makeSlipPng({ sendingBank: '004', transRef, amountSatang: 100, at: new Date() })));
    const read = await Promise.all(files.map((f) => reader.read(f, MAX_SLIP_BYTES)));
    expect(read.map((r) => r.transRef)).toEqual(refs);
    expect(read[0].sendingBank).toBe('004');
    expect(read[1].sendingBank).toBe('014');
  });

  test('refusals come back as the same reason codes as on the request thread', async () => {
    expect(await codeOf(reader.read(Buffer.from('%PDF-1.7'), MAX_SLIP_BYTES))).toBe('SLIP_INVALID_FILE');
    const png = makeSlipPng({ sendingBank: '004', transRef: 'BIGSLIP123456', amountSatang: 100 });
    expect(await codeOf(reader.read(png, 100))).toBe('IMG_SIZE_UNABLE_TO_PROCESS');
    expect(await codeOf(reader.read(png.subarray(0, png.length >> 1), MAX_SLIP_BYTES))).toBe('INVALID_SLIP');
  });

  test('the slip is decoded on a worker thread, never on the request thread', async () => {
    // Counting turns of the event loop while a slip was read said so only when the read outlasted a turn: on a
    // machine where something else held the loop for as long as the decoding, it saw one turn (a flaky test).
    // The request thread's own decoder is what would run if the pool read here: it must not be called.
    const big = makeSlipJpeg({ sendingBank: '014', transRef: 'LOOPCHECK12345', amountSatang: 100 });
    jest.mocked(readSlip).mockClear();
    const slip = await reader.read(big, MAX_SLIP_BYTES);
    expect(slip.transRef).toBe('LOOPCHECK12345');
    expect(readSlip).not.toHaveBeenCalled();
    // The same check sees a read on this thread (threads: 0, what one-off scripts use).
    const here = createSlipReader({ threads: 0 });
    expect((await here.read(big, MAX_SLIP_BYTES)).transRef).toBe('LOOPCHECK12345');
    expect(readSlip).toHaveBeenCalledTimes(1);
    await here.close();
  });

  test('the caller keeps its buffer: the bytes sent are a copy', async () => {
    const png = makeSlipPng({ sendingBank: '004', transRef: 'KEEPMINE123456', amountSatang: 100 });
    await reader.read(png, MAX_SLIP_BYTES);
    expect(png.length).toBeGreaterThan(0);
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
  });
});

test('a thread that dies fails only its slip and is replaced', async () => {
  const reader = createSlipReader({ threads: 1 });
  try {
    const png = makeSlipPng({ sendingBank: '004', transRef: 'AFTERCRASH1234', amountSatang: 100 });
    // Terminating the only thread while it reads stands in for a crash.
    const threads = (reader as unknown as { threadsForTest?: () => { terminate(): Promise<number> }[] }).threadsForTest;
    expect(threads).toBeDefined();
    const first = reader.read(png, MAX_SLIP_BYTES);
    await threads!()[0].terminate();
    expect(await codeOf(first)).toMatch(/^other: slip reader thread stopped/);
    expect((await reader.read(png, MAX_SLIP_BYTES)).transRef).toBe('AFTERCRASH1234');
  } finally {
    await reader.close();
  }
});

test('after close every read is refused', async () => {
  const reader = createSlipReader({ threads: 1 });
  await reader.close();
  await expect(reader.read(Buffer.from('x'), 10)).rejects.toThrow('closed');
});

test('SLIP_WORKERS: a number of threads from 0 to 16, else one per spare core (1 to 4)', () => {
  expect(slipThreadsFromEnv({ SLIP_WORKERS: '0' })).toBe(0);
  expect(slipThreadsFromEnv({ SLIP_WORKERS: '3' })).toBe(3);
  const auto = slipThreadsFromEnv({});
  expect(auto).toBeGreaterThanOrEqual(1);
  expect(auto).toBeLessThanOrEqual(4);
  expect(() => slipThreadsFromEnv({ SLIP_WORKERS: 'many' })).toThrow('SLIP_WORKERS');
  expect(() => slipThreadsFromEnv({ SLIP_WORKERS: '17' })).toThrow('SLIP_WORKERS');
});

describe('the pool is bounded (issue 39 row 2)', () => {
  test('at most queueMax slips wait for a thread; one more is refused at once with SlipReaderBusy', async () => {
    const reader = createSlipReader({ threads: 1, queueMax: 2 });
    try {
      const png = makeSlipPng({ sendingBank: '004', transRef: 'QUEUEFULL12345', amountSatang: 100 });
      // One on the thread, two waiting: the fourth and fifth find the queue full.
      const reads = Array.from({ length: 5 }, () => reader.read(png, MAX_SLIP_BYTES).then(() => 'read', (e: unknown) => (e instanceof SlipReaderBusy ? 'busy' : String(e))));
      expect(await Promise.all(reads)).toEqual(['read', 'read', 'read', 'busy', 'busy']);
      // Once the queue drained, slips are taken again.
      expect((await reader.read(png, MAX_SLIP_BYTES)).transRef).toBe('QUEUEFULL12345');
    } finally {
      await reader.close();
    }
  });

  test('each thread runs under V8 resource limits (its heap bounded by memoryMb)', async () => {
    const reader = createSlipReader({ threads: 1, memoryMb: 96 });
    try {
      await reader.read(makeSlipPng({ sendingBank: '004', transRef: 'LIMITS12345678', amountSatang: 100 }), MAX_SLIP_BYTES);
      const [thread] = (reader as unknown as { threadsForTest(): { resourceLimits?: { maxOldGenerationSizeMb?: number } }[] }).threadsForTest();
      expect(thread.resourceLimits?.maxOldGenerationSizeMb).toBe(96);
    } finally {
      await reader.close();
    }
  });

  test('SLIP_QUEUE_MAX and SLIP_WORKER_MEMORY_MB: defaults 16 and 256, bad values refused', () => {
    expect(slipPoolFromEnv({ SLIP_WORKERS: '2' })).toEqual({ threads: 2, queueMax: 16, memoryMb: 256 });
    expect(slipPoolFromEnv({ SLIP_WORKERS: '1', SLIP_QUEUE_MAX: '0', SLIP_WORKER_MEMORY_MB: '128' })).toEqual({ threads: 1, queueMax: 0, memoryMb: 128 });
    expect(() => slipPoolFromEnv({ SLIP_QUEUE_MAX: '-1' })).toThrow('SLIP_QUEUE_MAX');
    expect(() => slipPoolFromEnv({ SLIP_WORKER_MEMORY_MB: '8' })).toThrow('SLIP_WORKER_MEMORY_MB');
  });
});
