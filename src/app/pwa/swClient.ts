import { Workbox } from 'workbox-window';

import { i18n } from '../i18n';
import { showToast } from '../notify';
import { initialUpdateState, updateCheckDue, updateStep, type UpdateEffect, type UpdateEvent, type UpdateState } from './updateFlow';

/**
 * The page's side of the service worker, loaded after `load` in its own chunk (register.ts): registers
 * /sw.js, feeds workbox-window's events to updateFlow and carries out its effects; the prompt is a toast
 * ("New version available" with Reload) that stays until pressed.
 */
export function startServiceWorker(reload: () => void = () => window.location.reload()): void {
  const wb = new Workbox('/sw.js', { scope: '/' });
  let state: UpdateState = initialUpdateState;

  const run = (effect: UpdateEffect) => {
    if (effect === 'showPrompt') {
      showToast({
        message: i18n.t('pwa.updateAvailable'),
        variant: 'info',
        persist: true,
        action: { label: i18n.t('pwa.reload'), onAction: () => send({ type: 'reloadChosen' }) },
      });
    } else if (effect === 'skipWaiting') {
      wb.messageSkipWaiting();
    } else {
      reload();
    }
  };
  const send = (event: UpdateEvent) => {
    const next = updateStep(state, event);
    state = next.state;
    next.effects.forEach(run);
  };

  wb.addEventListener('waiting', () => send({ type: 'waiting' }));
  wb.addEventListener('controlling', (event) => send({ type: 'controlling', isUpdate: Boolean(event.isUpdate) }));

  let lastCheck = Date.now();
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState !== 'visible' || !updateCheckDue(lastCheck, Date.now())) return;
    lastCheck = Date.now();
    void wb.update().catch(() => undefined);
  });

  void wb.register().catch(() => undefined); // e.g. a private window without service workers
}
