import { Workbox } from 'workbox-window';

import { i18n } from '../../core/i18n';
import { showToast } from '../../core/notify';
import { initialUpdateState, updateStep, type UpdateEffect, type UpdateEvent, type UpdateState } from './updateFlow';

/**
 * The update prompt (chunk `sw-client`), loaded by register.ts once a new version is waiting or has taken
 * over: workbox-window follows the worker (its re-registration reports a worker already waiting), updateFlow
 * decides, and this carries out the effects. The prompt is a toast ("New version available" with Reload)
 * that stays until pressed.
 */
export function startUpdatePrompt({ controlledByNew }: { controlledByNew: boolean }, reload: () => void = () => window.location.reload()): void {
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
  if (controlledByNew) send({ type: 'controlling', isUpdate: true });
  void wb.register({ immediate: true }).catch(() => undefined);
}
