import { initialUpdateState, updateStep, type UpdateEvent, type UpdateState } from './updateFlow';

/** Runs events from the start and returns the final state and every effect in order. */
function run(...events: UpdateEvent[]) {
  let state: UpdateState = initialUpdateState;
  const effects: string[] = [];
  for (const event of events) {
    const next = updateStep(state, event);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

const waiting: UpdateEvent = { type: 'waiting' };
const reloadChosen: UpdateEvent = { type: 'reloadChosen' };
const controlling = (isUpdate: boolean): UpdateEvent => ({ type: 'controlling', isUpdate });

describe('the update prompt', () => {
  test('a waiting worker shows the prompt; Reload tells it to take over; the page reloads once it controls', () => {
    expect(run(waiting)).toEqual({ state: { kind: 'prompted', controlled: false }, effects: ['showPrompt'] });
    expect(run(waiting, reloadChosen)).toEqual({ state: { kind: 'activating' }, effects: ['showPrompt', 'skipWaiting'] });
    expect(run(waiting, reloadChosen, controlling(true))).toEqual({ state: { kind: 'reloading' }, effects: ['showPrompt', 'skipWaiting', 'reload'] });
  });

  test('a tab whose first visit installed the worker still reloads after its Reload (controlling says isUpdate false there)', () => {
    expect(run(controlling(false), waiting, reloadChosen, controlling(false)).effects).toEqual(['showPrompt', 'skipWaiting', 'reload']);
  });

  test('the first install taking control changes nothing: no prompt, no reload', () => {
    expect(run(controlling(false))).toEqual({ state: { kind: 'idle' }, effects: [] });
  });

  test('nothing reloads unless the player chose to: waiting and control changes alone never reload', () => {
    const { effects } = run(waiting, waiting, controlling(true), controlling(true));
    expect(effects).not.toContain('reload');
    expect(effects).not.toContain('skipWaiting');
  });

  test('the prompt shows once however often the worker is reported waiting', () => {
    expect(run(waiting, waiting, waiting).effects).toEqual(['showPrompt']);
  });

  test('a new worker another tab let in is offered too, and its Reload only reloads', () => {
    expect(run(controlling(true))).toEqual({ state: { kind: 'prompted', controlled: true }, effects: ['showPrompt'] });
    expect(run(controlling(true), reloadChosen).effects).toEqual(['showPrompt', 'reload']);
    // Prompted for a waiting worker, then another tab activated it: Reload no longer needs to ask it.
    expect(run(waiting, controlling(true), reloadChosen).effects).toEqual(['showPrompt', 'reload']);
  });

  test('Reload pressed twice, or events after the reload started, do nothing more', () => {
    expect(run(waiting, reloadChosen, reloadChosen).effects).toEqual(['showPrompt', 'skipWaiting']);
    expect(run(waiting, reloadChosen, controlling(true), controlling(true), waiting, reloadChosen).effects).toEqual(['showPrompt', 'skipWaiting', 'reload']);
  });

  test('a Reload without a prompt does nothing', () => {
    expect(run(reloadChosen)).toEqual({ state: { kind: 'idle' }, effects: [] });
  });
});
