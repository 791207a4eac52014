import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

/**
 * The modal stack: ids of open modals, last on top. Body scrolling is off while it is not empty (spec §4).
 * Opening a modal that is already open and closing one that is not are refused (state unchanged).
 */
export interface ModalsState {
  stack: string[];
}

const initialState: ModalsState = { stack: [] };

const modalSlice = createSlice({
  name: 'modals',
  initialState,
  reducers: {
    modalOpened(state, action: PayloadAction<string>) {
      if (!state.stack.includes(action.payload)) state.stack.push(action.payload);
    },
    modalClosed(state, action: PayloadAction<string>) {
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
export const selectIsModalOpen = (state: { modals: ModalsState }, id: string) => state.modals.stack.includes(id);
export const modalsReducer = modalSlice.reducer;
export default modalSlice;
