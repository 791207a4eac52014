/**
 * The conditions dialog's id on the modal stack, apart from the dialog: the layout opens it without loading it (the
 * dialog and its HTML sanitizer, DOMPurify, are a chunk of their own fetched on first open).
 */
export const CONDITIONS_MODAL = 'conditions';
