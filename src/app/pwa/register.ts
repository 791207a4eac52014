import { registrationPlan } from './updateFlow';

/**
 * Registers the service worker in production builds, after `load`; workbox-window and the update prompt
 * come in their own chunk (`sw-client`), never with the first screen's download. Development builds and jest
 * never register (process.env.NODE_ENV is not 'production'), so their code drops this import.
 */
export function registerServiceWorker(): void {
  const plan = registrationPlan({
    production: process.env.NODE_ENV === 'production',
    supported: typeof navigator !== 'undefined' && 'serviceWorker' in navigator,
    loaded: document.readyState === 'complete',
  });
  if (plan === 'never') return;
  const start = () => {
    import(/* webpackChunkName: "sw-client" */ './swClient').then(
      ({ startServiceWorker }) => startServiceWorker(),
      () => undefined, // offline or a failed chunk: the app works without a worker
    );
  };
  if (plan === 'now') start();
  else window.addEventListener('load', start, { once: true });
}
