import { createAction } from '@reduxjs/toolkit';

/**
 * Upload progress of a local media message, from the upload's XMLHttpRequest (chatApi dispatches it, chatSlice
 * reduces it). A module of its own so that chatApi does not import the slice, which imports chatApi's types.
 */
export const uploadProgressed = createAction<{ localId: string; loaded: number; total: number }>('chat/uploadProgressed');
