/**
 * The "new version available" decision, pure (updateFlow.test.ts): what the page does on each service worker
 * event. swClient.ts feeds it workbox-window's events and carries out the effects.
 *
 * idle -> prompted (a new worker waits: show the prompt once) -> activating (the player chose Reload: tell the
 * waiting worker to take over) -> reloading (it controls the page: reload once, so the page runs the new
 * version's chunks). A worker another tab activated is offered the same way; its Reload just reloads.
 * Nothing reloads the page unless the player asked, so there is no reload loop.
 */
export type UpdateState =
  | { kind: 'idle' }
  /** The prompt shows. `controlled`: the new worker already controls this page (another tab let it in). */
  | { kind: 'prompted'; controlled: boolean }
  | { kind: 'activating' }
  | { kind: 'reloading' };

export type UpdateEvent =
  /** A new worker is installed and waiting (workbox-window `waiting`). */
  | { type: 'waiting' }
  /** A worker took control of this page; `isUpdate`: it replaced an older one (not the first install). */
  | { type: 'controlling'; isUpdate: boolean }
  /** The player pressed the prompt's Reload. */
  | { type: 'reloadChosen' };

export type UpdateEffect = 'showPrompt' | 'skipWaiting' | 'reload';

export const initialUpdateState: UpdateState = { kind: 'idle' };

export function updateStep(state: UpdateState, event: UpdateEvent): { state: UpdateState; effects: UpdateEffect[] } {
  const stay = { state, effects: [] as UpdateEffect[] };
  switch (state.kind) {
    case 'idle':
      if (event.type === 'waiting') return { state: { kind: 'prompted', controlled: false }, effects: ['showPrompt'] };
      // The first install claiming the page changes nothing the page runs.
      if (event.type === 'controlling' && event.isUpdate) return { state: { kind: 'prompted', controlled: true }, effects: ['showPrompt'] };
      return stay;
    case 'prompted':
      if (event.type === 'reloadChosen') {
        return state.controlled ? { state: { kind: 'reloading' }, effects: ['reload'] } : { state: { kind: 'activating' }, effects: ['skipWaiting'] };
      }
      if (event.type === 'controlling' && event.isUpdate) return { state: { kind: 'prompted', controlled: true }, effects: [] };
      return stay;
    case 'activating':
      if (event.type === 'controlling') return { state: { kind: 'reloading' }, effects: ['reload'] };
      return stay;
    case 'reloading':
      return stay;
  }
}
