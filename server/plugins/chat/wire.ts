import type { ConversationRow, MessageRow, SummaryRow } from './repository';

import type { ChatMessage, ConversationSummary } from '../../../shared/chatWire';

export type { ConversationSummary };

/**
 * Rows as the wire shows them (docs/chat-wire.md; the types are shared with the SPA, shared/chatWire.ts). The payload is
 * the stored JSON object as it is: the routes' response schemas say what may leave.
 */
export type ChatMessageWire = Omit<ChatMessage, 'payload'> & { payload: Record<string, unknown> | null };

const parse = (json: string | null): Record<string, unknown> | null => {
  if (!json) return null;
  try {
    const v = JSON.parse(json) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/**
 * What a staff message carries as `username`, in place of the staff member's login name: a customer who knew it could
 * aim the staff login lockout at that account (issue 39). The name shown is the staff member's display name.
 */
export const STAFF_USERNAME = 'staff';

/** userId / guestId are the conversation's owner's (a guest's messages adopted by a player show the player). */
export function toWire(row: MessageRow, conv: Pick<ConversationRow, 'player_id' | 'guest_id'>): ChatMessageWire {
  return {
    _id: String(row.id),
    sender: row.sender,
    message: row.message,
    message_type: row.message_type,
    payload: parse(row.payload),
    userId: conv.player_id !== null ? String(conv.player_id) : null,
    guestId: conv.guest_id,
    username: row.author_kind === 'staff' ? STAFF_USERNAME : row.author_username,
    name: row.author_name,
    createdAt: row.created_at,
    session_id: row.session_id,
    // Customer side: a bot or staff message the customer has seen; the customer's own are read by definition.
    read: row.sender === 'customer' || row.read_by_customer_at !== null,
  };
}

/** A one-line preview of a message for the staff list. */
export function preview(message: string | null, type: string | null, payloadJson: string | null): string | null {
  if (message === null) return null;
  if (type === 'media' && !message.trim()) return `[${String(parse(payloadJson)?.fileType ?? 'file')}]`;
  return message.length > 200 ? `${message.slice(0, 199)}…` : message;
}

export function toSummary(r: SummaryRow): ConversationSummary {
  return {
    id: String(r.id),
    userId: r.player_id !== null ? String(r.player_id) : null,
    guestId: r.guest_id,
    name: r.player_id !== null ? r.player_name : r.customer_name,
    lastMessage: preview(r.last_message, r.last_type, r.last_payload),
    lastAt: r.last_message_at,
    unread: r.unread,
    status: r.status,
  };
}
