import { MODAL, type ModalId } from './modalIds';
import { allModalsClosed, modalClosed, modalOpened, modalsReducer, selectAnyModalOpen, selectIsModalOpen, selectTopModal, type ModalsState } from './modalSlice';

const stack = (...ids: ModalId[]): ModalsState => ({ stack: ids });

describe('modal stack', () => {
  it.each<[string, ModalsState, { type: string }, ModalsState]>([
    ['open on an empty stack', stack(), modalOpened('conditions'), stack('conditions')],
    ['open a second modal on top', stack('spinWheel'), modalOpened('spinPrize'), stack('spinWheel', 'spinPrize')],
    ['close the top modal', stack('spinWheel', 'spinPrize'), modalClosed('spinPrize'), stack('spinWheel')],
    ['close a modal under the top', stack('spinWheel', 'spinPrize'), modalClosed('spinWheel'), stack('spinPrize')],
    ['close all', stack('spinWheel', 'spinPrize'), allModalsClosed(), stack()],
  ])('%s', (_name, before, action, after) => {
    expect(modalsReducer(before, action)).toEqual(after);
  });

  it.each<[string, ModalsState, { type: string }]>([
    ['opening a modal that is already open', stack('conditions'), modalOpened('conditions')],
    ['closing a modal that is not open', stack('conditions'), modalClosed('spinWheel')],
    ['closing all when none is open', stack(), allModalsClosed()],
  ])('refuses %s (state unchanged)', (_name, before, action) => {
    expect(modalsReducer(before, action)).toBe(before);
  });

  it('selects whether any modal is open and which is on top', () => {
    expect(selectAnyModalOpen({ modals: stack() })).toBe(false);
    expect(selectAnyModalOpen({ modals: stack('deposit') })).toBe(true);
    expect(selectTopModal({ modals: stack('deposit', 'slipHistory') })).toBe('slipHistory');
    expect(selectTopModal({ modals: stack() })).toBeNull();
    expect(selectIsModalOpen({ modals: stack('deposit', 'slipHistory') }, 'deposit')).toBe(true);
    expect(selectIsModalOpen({ modals: stack('deposit') }, 'slipHistory')).toBe(false);
  });

  it('takes only the registry\'s ids (a typo does not compile)', () => {
    // @ts-expect-error 'depsoit' is no modal id: typecheck fails if the stack took any string again.
    modalOpened('depsoit');
    expect(modalOpened(MODAL.gameAccount).payload).toBe('game-account');
    expect(modalOpened(`${MODAL.deposit}-failed`).payload).toBe('deposit-failed');
    expect(modalOpened('banners-refund').payload).toBe('banners-refund');
  });
});
