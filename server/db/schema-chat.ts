import type { Generated } from 'kysely';

/** Tables of the support chat (migration 202611260031_chat, docs/chat.md). */

export type ConversationStatus = 'open' | 'waiting_staff' | 'closed';
export type ChatMessageType = 'text' | 'buttons' | 'media' | 'quick_replies' | 'generic' | 'postback';
export type ChatAuthorKind = 'customer' | 'bot' | 'staff';

/** One per player (player_id) or per guest id (guest_id); exactly one of the two is set. */
export interface ChatConversationsTable {
  id: Generated<number>;
  player_id: number | null;
  guest_id: string | null;
  /** The name a guest gave; null for players (their players.name is shown). */
  customer_name: string | null;
  /** The current session; a new one starts with the first message after staff closed the conversation. */
  session_id: string;
  status: ConversationStatus;
  closed_at: string | null;
  last_message_at: string;
  created_at: string;
}

export interface ChatMessagesTable {
  id: Generated<number>;
  conversation_id: number;
  session_id: string;
  sender: 'customer' | 'other';
  author_kind: ChatAuthorKind;
  staff_id: number | null;
  /** Shown with the message: the player's phone, 'bot', the staff member's username; null for a guest. */
  author_username: string | null;
  author_name: string | null;
  message_type: ChatMessageType;
  message: string;
  /** The payload as JSON text, or null. */
  payload: string | null;
  created_at: string;
  /** When the customer saw a bot or staff message (null: unread; customer messages stay null). */
  read_by_customer_at: string | null;
  /** When staff saw a customer message. */
  read_by_staff_at: string | null;
}

/** A file a customer uploaded, stored as DATA_DIR/chat-media/{id}.{ext}. */
export interface ChatUploadsTable {
  id: string;
  ext: string;
  player_id: number | null;
  guest_id: string | null;
  kind: 'image' | 'video';
  content_type: string;
  size: number;
  created_at: string;
}

export interface ChatTables {
  chat_conversations: ChatConversationsTable;
  chat_messages: ChatMessagesTable;
  chat_uploads: ChatUploadsTable;
}
