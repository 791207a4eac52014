import { byAsk, readBatch, readBatchPerDatabase } from './read-batch';

/** readBatch (issue 13): the asks of one turn of the event loop in one call, each answered with its own result. */
describe('readBatch', () => {
  const turn = () => new Promise((r) => setImmediate(r));

  it('runs the asks of one turn as one call and answers each with its own result, in order', async () => {
    const calls: number[][] = [];
    const double = readBatch(async (asks: number[]) => {
      calls.push(asks);
      return asks.map((x) => x * 2);
    });
    const answers = await Promise.all([double(1), double(2), double(3)]);
    expect(answers).toEqual([2, 4, 6]);
    expect(calls).toEqual([[1, 2, 3]]);
    // A later turn is a batch of its own: nothing waits for asks that have not come.
    expect(await double(4)).toBe(8);
    expect(calls).toEqual([[1, 2, 3], [4]]);
  });

  it('starts the call only after the turn: nothing is read before it is asked', async () => {
    let started = 0;
    const read = readBatch(async (asks: string[]) => {
      started += 1;
      return asks;
    });
    const first = read('a');
    expect(started).toBe(0);
    const second = read('b'); // same turn: joins the batch
    await turn();
    expect(started).toBe(1);
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
  });

  it('splits a turn with more asks than the batch holds', async () => {
    const sizes: number[] = [];
    const read = readBatch(async (asks: number[]) => {
      sizes.push(asks.length);
      return asks;
    }, 3);
    const xs = [1, 2, 3, 4, 5, 6, 7];
    expect(await Promise.all(xs.map(read))).toEqual(xs);
    expect(sizes).toEqual([3, 3, 1]);
  });

  it('fails every ask of a failed call, and only those', async () => {
    let n = 0;
    const read = readBatch(async (asks: number[]) => {
      n += 1;
      if (n === 1) throw new Error('connection lost');
      return asks;
    });
    const failed = await Promise.allSettled([read(1), read(2)]);
    expect(failed.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(await read(3)).toBe(3);
  });

  it('fails the asks when the call answers a different number of results (never a wrong one)', async () => {
    const read = readBatch(async (asks: number[]) => asks.slice(1));
    await expect(Promise.all([read(1), read(2)])).rejects.toThrow(/1 answers for 2 asks/);
  });

  it('fails the asks when the call throws before it returns a promise', async () => {
    const read = readBatch((): Promise<number[]> => {
      throw new Error('bad statement');
    });
    await expect(read(1)).rejects.toThrow('bad statement');
  });

  it('keeps one batch per database: asks of one turn to two databases make two calls, each with its own asks', async () => {
    const calls: [string, number[]][] = [];
    const read = readBatchPerDatabase(async (db: { name: string }, asks: number[]) => {
      calls.push([db.name, asks]);
      return asks.map((x) => `${db.name}${x}`);
    });
    const a = { name: 'a' };
    const b = { name: 'b' };
    expect(await Promise.all([read(a, 1), read(b, 2), read(a, 3)])).toEqual(['a1', 'b2', 'a3']);
    expect(calls).toEqual([
      ['a', [1, 3]],
      ['b', [2]],
    ]);
  });

  it('places rows by the number of the ask they answer, leaving the asks that found nothing empty', () => {
    expect(byAsk([{ n: '3', v: 'c' }, { n: 1, v: 'a' }], 4)).toEqual([{ n: 1, v: 'a' }, undefined, { n: '3', v: 'c' }, undefined]);
  });
});
