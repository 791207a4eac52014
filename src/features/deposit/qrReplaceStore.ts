import type { RootState } from '../../app/store';
import { injectSlice } from '../../core/lazySlices';
import { initialQrReplace, qrReplaceReducer, type QrReplace } from './qrReplaceSlice';

/**
 * The QR replace question (qrReplaceSlice.ts), injected with the deposit modal's chunk: the login bundle does not
 * carry it. Until an action has passed after the injection the state is undefined: the selector falls back to idle.
 */
injectSlice({ reducerPath: 'qrReplace', reducer: qrReplaceReducer });

export const selectQrReplace = (state: RootState): QrReplace => state.qrReplace ?? initialQrReplace;
