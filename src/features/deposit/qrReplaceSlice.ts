import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

import type { QrBank } from './qrBanks';

/**
 * Creating a QR while another bank's QR is live cancels that one (one live QR per player), so the panel asks first:
 *
 *   idle --asked (an amount to create at a bank)--> asking
 *   asking --confirmed ("Cancel it and create": the panel creates the amount) / kept ("Keep it")--> idle
 *   asking --dropped (the amount changed, the other QR ended meanwhile, the panel went)--> idle
 *
 * Only the panel on screen asks (one at a time); an event the state does not expect leaves it unchanged.
 */
export type QrReplace = { status: 'idle' } | { status: 'asking'; bank: QrBank; amount: number };

export const initialQrReplace: QrReplace = { status: 'idle' };

const qrReplaceSlice = createSlice({
  name: 'qrReplace',
  initialState: initialQrReplace as QrReplace,
  reducers: {
    qrReplaceAsked(state, { payload }: PayloadAction<{ bank: QrBank; amount: number }>): QrReplace {
      if (state.status !== 'idle') return state;
      return { status: 'asking', bank: payload.bank, amount: payload.amount };
    },
    qrReplaceConfirmed(state): QrReplace {
      return state.status === 'asking' ? initialQrReplace : state;
    },
    qrReplaceKept(state): QrReplace {
      return state.status === 'asking' ? initialQrReplace : state;
    },
    qrReplaceDropped(state): QrReplace {
      return state.status === 'asking' ? initialQrReplace : state;
    },
  },
});

export const { qrReplaceAsked, qrReplaceConfirmed, qrReplaceKept, qrReplaceDropped } = qrReplaceSlice.actions;
export const qrReplaceReducer = qrReplaceSlice.reducer;
