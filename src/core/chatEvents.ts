import { createAction } from '@reduxjs/toolkit';

/**
 * Opens the chat widget from anywhere (the contact page's "Chat with us" button): features do not import each
 * other, so the event lives here and the chat feature's slice reacts to it (docs/client.md "Chat widget").
 * Nothing shows when the operator turned the widget off (GET /api/lookup/enableChatWidget false).
 */
export const chatOpened = createAction('chat/opened');
