/**
 * Wire types of the staff console (docs/chat-wire.md "Message (wire)" and "Staff").
 * The message and summary types are the chat's own (shared/chatWire.ts, types only, so no player code is bundled).
 */

export type StaffRole = 'support' | 'payments' | 'admin';

export interface StaffProfile {
  id: number;
  username: string;
  name: string;
  role: StaffRole;
}

import type { ChatMessage } from '../../shared/chatWire';

export type { ChatButton, ChatMessage, ConversationStatus, ConversationSummary } from '../../shared/chatWire';
export type { ChatMessageType as MessageType, ChatPayload as MessagePayload, GenericElement as GenericCard } from '../../shared/chatWire';

/** The list filter: the query `status` of GET /api/staff/conversations. */
export type ConversationFilter = 'open' | 'closed';

export interface HistoryPage {
  total: number;
  messages: ChatMessage[];
  closed: boolean;
}

/** `messaging` on the /staff namespace. */
export interface StaffMessagingEvent {
  conversationId: string | number;
  message: ChatMessage;
}
