import { allModalsClosed, modalClosed, modalOpened, modalsReducer, selectAnyModalOpen, selectIsModalOpen, selectTopModal, type ModalsState } from './modalSlice';

const stack = (...ids: string[]): ModalsState => ({ stack: ids });

describe('modal stack', () => {
  it.each<[string, ModalsState, { type: string }, ModalsState]>([
    ['open on an empty stack', stack(), modalOpened('conditions'), stack('conditions')],
    ['open a second modal on top', stack('spin'), modalOpened('prize'), stack('spin', 'prize')],
    ['close the top modal', stack('spin', 'prize'), modalClosed('prize'), stack('spin')],
    ['close a modal under the top', stack('spin', 'prize'), modalClosed('spin'), stack('prize')],
    ['close all', stack('spin', 'prize'), allModalsClosed(), stack()],
  ])('%s', (_name, before, action, after) => {
    expect(modalsReducer(before, action)).toEqual(after);
  });

  it.each<[string, ModalsState, { type: string }]>([
    ['opening a modal that is already open', stack('conditions'), modalOpened('conditions')],
    ['closing a modal that is not open', stack('conditions'), modalClosed('spin')],
    ['closing all when none is open', stack(), allModalsClosed()],
  ])('refuses %s (state unchanged)', (_name, before, action) => {
    expect(modalsReducer(before, action)).toBe(before);
  });

  it('selects whether any modal is open and which is on top', () => {
    expect(selectAnyModalOpen({ modals: stack() })).toBe(false);
    expect(selectAnyModalOpen({ modals: stack('a') })).toBe(true);
    expect(selectTopModal({ modals: stack('a', 'b') })).toBe('b');
    expect(selectTopModal({ modals: stack() })).toBeNull();
    expect(selectIsModalOpen({ modals: stack('a', 'b') }, 'a')).toBe(true);
    expect(selectIsModalOpen({ modals: stack('a') }, 'b')).toBe(false);
  });
});
