/**
 * The service worker's page side that ships with the app (a few hundred bytes): registration in production
 * builds after `load`, and the watch for a new version. workbox-window and the update prompt (chunk
 * `sw-client`, swClient.ts) load only once a new version is actually waiting or has taken over, so the first
 * screen's download never carries them. Development builds and jest never register (process.env.NODE_ENV is
 * not 'production'), so their bundles drop the rest.
 */
export function registerServiceWorker(): void {
  const plan = registrationPlan({
    production: process.env.NODE_ENV === 'production',
    supported: typeof navigator !== 'undefined' && 'serviceWorker' in navigator,
    loaded: document.readyState === 'complete',
  });
  if (plan === 'never') return;
  const start = () => {
    // A private window without service workers, or offline: the app works without one.
    watchServiceWorker(navigator.serviceWorker, () => import(/* webpackChunkName: "sw-client" */ './swClient')).catch(() => undefined);
  };
  if (plan === 'now') start();
  else window.addEventListener('load', start, { once: true });
}

/**
 * When registration starts: after the window's `load` (the worker's precaching never competes with the first
 * screen's downloads), at once if `load` has passed already. Never outside production builds (the dev server
 * and jest run no worker), nor where the browser has no service workers.
 */
export function registrationPlan(env: { production: boolean; supported: boolean; loaded: boolean }): 'never' | 'now' | 'onLoad' {
  if (!env.production || !env.supported) return 'never';
  return env.loaded ? 'now' : 'onLoad';
}

/** A tab left open checks for a new version when it comes back into view, at most this often. */
export const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

export function updateCheckDue(lastCheckMs: number, nowMs: number): boolean {
  return nowMs - lastCheckMs >= UPDATE_CHECK_INTERVAL_MS;
}

type PromptModule = { startUpdatePrompt(options: { controlledByNew: boolean }): void };

/**
 * Registers /sw.js and hands over to the update prompt (loaded by `loadPrompt`) when a new version shows up:
 * a worker installed while another controls the page (it waits), or a new worker taking over a page an older
 * one controlled (another tab let it in). The first install, which takes control of an uncontrolled page,
 * is no new version.
 */
export async function watchServiceWorker(
  container: ServiceWorkerContainer,
  loadPrompt: () => Promise<PromptModule>,
  now: () => number = Date.now,
): Promise<ServiceWorkerRegistration> {
  const hadController = Boolean(container.controller);
  const registration = await container.register('/sw.js', { scope: '/' });
  let handedOver = false;
  const handOver = (controlledByNew: boolean) => {
    if (handedOver) return;
    handedOver = true;
    loadPrompt().then(
      (prompt) => prompt.startUpdatePrompt({ controlledByNew }),
      () => {
        handedOver = false; // the chunk failed (offline): the next event tries again
      },
    );
  };
  const watch = (worker: ServiceWorker | null) => {
    const check = () => {
      if (worker?.state === 'installed' && container.controller) handOver(false);
    };
    check();
    worker?.addEventListener('statechange', check);
  };
  watch(registration.waiting);
  watch(registration.installing);
  registration.addEventListener('updatefound', () => watch(registration.installing));
  container.addEventListener('controllerchange', () => {
    if (hadController) handOver(true);
  });

  let lastCheck = now();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || !updateCheckDue(lastCheck, now())) return;
    lastCheck = now();
    registration.update().catch(() => undefined);
  });
  return registration;
}
