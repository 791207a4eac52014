/**
 * The chat's wire types (spec §3 "Chat conversation"; docs/chat.md), shared by the player's widget, the staff
 * console and the server. Types only: nothing here reaches a bundle.
 */
export type ChatSender = 'customer' | 'other';
export type ChatMessageType = 'text' | 'buttons' | 'media' | 'quick_replies' | 'generic' | 'postback';
export type ChatButtonType = 'web' | 'call' | 'postback' | 'other';

export interface ChatButton {
  title: string;
  type: ChatButtonType;
  /** web: an https URL or a same-site path; call: a phone number; postback: a code. */
  payload: string;
}

export type MediaFileType = 'image' | 'video' | 'file';

export interface MediaPayload {
  message: string;
  url: boolean;
  fileType: MediaFileType;
  filePath: string;
}

export interface GenericElement {
  image_url: string | null;
  title: string;
  subtitle: string | null;
  buttons: ChatButton[];
}

export type ChatPayload =
  | null
  | { buttons: ChatButton[] }
  | MediaPayload
  | { quick_replies: ChatButton[] }
  | { elements: GenericElement[] }
  | { payload: string };

export interface ChatMessage {
  _id: string;
  sender: ChatSender;
  message: string;
  message_type: ChatMessageType;
  payload: ChatPayload;
  userId: string | null;
  guestId: string | null;
  username: string | null;
  name: string | null;
  createdAt: string;
  session_id: string;
  read: boolean;
}

export type ConversationStatus = 'open' | 'waiting_staff' | 'closed';

/** A conversation as the staff console lists it. */
export interface ConversationSummary {
  id: string;
  userId: string | null;
  guestId: string | null;
  name: string | null;
  lastMessage: string | null;
  lastAt: string;
  /** Customer messages staff have not read yet. */
  unread: number;
  status: ConversationStatus;
}
