/** How many more times a failed dynamic import is tried, and the pause before each new try. */
export interface RetryOptions {
  retries?: number;
  delayMs?: number;
}

/**
 * Runs `load` (a dynamic `import()`) and, while it rejects, tries again up to `retries` more times, `delayMs`
 * apart (a chunk that could not be fetched on a flaky connection often arrives a moment later; webpack forgets a
 * failed chunk, so a new `import()` fetches it again). Rejects with the last error once the tries are spent.
 */
export async function retryImport<T>(load: () => Promise<T>, { retries = 2, delayMs = 500 }: RetryOptions = {}): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      if (attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}
