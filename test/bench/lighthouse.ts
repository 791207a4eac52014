import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CHROMIUM, freePort, startServer } from '../e2e/harness';

/**
 * Lighthouse (mobile emulation: a mid-range phone on a throttled network) on /login, the first screen a
 * visitor sees. Prints the category scores and the load metrics; no budget is set on these yet.
 */
export async function measureLighthouse(): Promise<string[]> {
  const server = await startServer();
  const port = await freePort();
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'wallet-lh-'));
  const chrome = spawn(
    CHROMIUM,
    ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--disable-sync', `--remote-debugging-port=${port}`, `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: 'ignore' },
  );
  try {
    await waitForDevtools(port);
    const { default: lighthouse } = (await import('lighthouse')) as unknown as { default: LighthouseFn };
    let result: Awaited<ReturnType<LighthouseFn>> | undefined;
    for (let attempt = 0; attempt < 2 && !result?.lhr.categories.performance?.score; attempt++) {
      // Lighthouse occasionally fails with NO_NAVSTART on a cold browser: one retry (TOOLCHAIN.md).
      result = await lighthouse(`${server.url}/login`, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility', 'best-practices'] });
    }
    const lhr = result!.lhr;
    const score = (k: string) => `${Math.round((lhr.categories[k]?.score ?? 0) * 100)}`;
    const metric = (k: string) => lhr.audits[k]?.displayValue ?? 'n/a';
    return [
      'Lighthouse /login (mobile, throttled):',
      `  performance ${score('performance')}, accessibility ${score('accessibility')}, best practices ${score('best-practices')}`,
      `  first contentful paint ${metric('first-contentful-paint')}, largest contentful paint ${metric('largest-contentful-paint')}, total blocking time ${metric('total-blocking-time')}, layout shift ${metric('cumulative-layout-shift')}`,
    ];
  } finally {
    chrome.kill('SIGKILL');
    await server.stop();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

type LighthouseFn = (
  url: string,
  flags: Record<string, unknown>,
) => Promise<{ lhr: { categories: Record<string, { score: number | null } | undefined>; audits: Record<string, { displayValue?: string } | undefined> } }>;

async function waitForDevtools(port: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/json/version`);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('Chromium did not open its DevTools port');
}
