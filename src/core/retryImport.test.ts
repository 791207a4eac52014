import { retryImport } from './retryImport';

/** A fake dynamic import that fails `failures` times, then resolves. */
function flakyLoader(failures: number) {
  let calls = 0;
  return jest.fn((): Promise<{ default: string }> => {
    calls += 1;
    return calls <= failures ? Promise.reject(new Error('ChunkLoadError')) : Promise.resolve({ default: 'page' });
  });
}

describe('retryImport', () => {
  it('returns the module at once when the first import works', async () => {
    const load = flakyLoader(0);
    await expect(retryImport(load, { delayMs: 0 })).resolves.toEqual({ default: 'page' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tries a failed import again and returns the module of the try that worked', async () => {
    const load = flakyLoader(2);
    await expect(retryImport(load, { retries: 2, delayMs: 0 })).resolves.toEqual({ default: 'page' });
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('rejects with the last error once the retries are spent', async () => {
    const load = flakyLoader(5);
    await expect(retryImport(load, { retries: 2, delayMs: 0 })).rejects.toThrow('ChunkLoadError');
    expect(load).toHaveBeenCalledTimes(3);
  });

  it('waits delayMs before each new try', async () => {
    jest.useFakeTimers();
    try {
      const load = flakyLoader(1);
      const result = retryImport(load, { retries: 2, delayMs: 1000 });
      await jest.advanceTimersByTimeAsync(999);
      expect(load).toHaveBeenCalledTimes(1);
      await jest.advanceTimersByTimeAsync(1);
      await expect(result).resolves.toEqual({ default: 'page' });
      expect(load).toHaveBeenCalledTimes(2);
    } finally {
      jest.useRealTimers();
    }
  });
});
