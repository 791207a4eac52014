/**
 * Wire types of the staff console, as /work/notes/chat-contract.md defines them ("Message (wire)" and "Staff").
 * The console is its own app (webpack entry `staff`), so it keeps its own copy instead of importing the player's.
 */

export type StaffRole = 'support' | 'payments' | 'admin';

export interface StaffProfile {
  id: number;
  username: string;
  name: string;
  role: StaffRole;
}

export interface ChatButton {
  title: string;
  type: 'web' | 'call' | 'postback' | 'other';
  payload: string;
}

export type MessageType = 'text' | 'buttons' | 'media' | 'quick_replies' | 'generic' | 'postback';

export interface GenericCard {
  image_url: string | null;
  title: string;
  subtitle: string | null;
  buttons: ChatButton[];
}

export type MessagePayload =
  | null
  | { buttons: ChatButton[] }
  | { message: string; url: boolean; fileType: 'image' | 'video' | 'file'; filePath: string }
  | { quick_replies: ChatButton[] }
  | { elements: GenericCard[] }
  | { payload: string };

export interface ChatMessage {
  _id: string;
  sender: 'customer' | 'other';
  message: string;
  message_type: MessageType;
  payload: MessagePayload;
  userId: string | null;
  guestId: string | null;
  username: string | null;
  name: string | null;
  createdAt: string;
  session_id: string;
  read: boolean;
}

export type ConversationStatus = 'open' | 'waiting_staff' | 'closed';

export interface ConversationSummary {
  id: string | number;
  userId: string | null;
  guestId: string | null;
  name: string | null;
  lastMessage: string | null;
  lastAt: string;
  /** Customer messages staff have not read yet. */
  unread: number;
  status: ConversationStatus;
}

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
