import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import type { ModalId } from './modalIds';

/**
 * The modal stack: ids of open modals, last on top. Body scrolling is off while it is not empty (spec §4).
 * Opening a modal that is already open and closing one that is not are refused (state unchanged). Ids are the
 * registry's (modalIds.ts).
 */
export interface ModalsState {
  stack: ModalId[];
}

const initialState: ModalsState = { stack: [] };

const modalSlice = createSlice({
  name: 'modals',
  initialState,
  reducers: {
    modalOpened(state, action: PayloadAction<ModalId>) {
      if (!state.stack.includes(action.payload)) state.stack.push(action.payload);
    },
    modalClosed(state, action: PayloadAction<ModalId>) {
      const at = state.stack.indexOf(action.payload);
      if (at >= 0) state.stack.splice(at, 1);
    },
    allModalsClosed(state) {
      if (state.stack.length > 0) state.stack = [];
    },
  },
  selectors: {
    selectModalStack: (state) => state.stack,
    selectAnyModalOpen: (state) => state.stack.length > 0,
    selectTopModal: (state) => (state.stack.length > 0 ? state.stack[state.stack.length - 1] : null),
  },
});

export const { modalOpened, modalClosed, allModalsClosed } = modalSlice.actions;
export const { selectModalStack, selectAnyModalOpen, selectTopModal } = modalSlice.selectors;
export const selectIsModalOpen = (state: { modals: ModalsState }, id: ModalId) => state.modals.stack.includes(id);
export const modalsReducer = modalSlice.reducer;
export default modalSlice;
