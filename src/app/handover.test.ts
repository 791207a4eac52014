import { frozenView } from './handover';
import { localeChosen } from '../core/prefs';
import { makeStore } from './store';

test('a frozen view shows the state it was given and tells no one of changes, while its dispatches change the store', () => {
  const store = makeStore();
  const state = store.getState();
  const view = frozenView(store, state);
  const told = jest.fn();
  view.subscribe(told);
  view.dispatch(localeChosen('la'));
  expect(store.getState().prefs.locale).toBe('la');
  expect(view.getState()).toBe(state);
  expect(view.getState().prefs.locale).not.toBe('la');
  expect(told).not.toHaveBeenCalled();
});
