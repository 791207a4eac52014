import type { ChatMessage, ConversationSummary } from '../../staff/types';

export function summary(id: number | string, over: Partial<ConversationSummary> = {}): ConversationSummary {
  return {
    id: String(id),
    userId: null,
    guestId: null,
    name: null,
    lastMessage: 'hello',
    lastAt: '2026-11-26T10:00:00.000Z',
    unread: 0,
    status: 'open',
    ...over,
  };
}

export function message(id: string, over: Partial<ChatMessage> = {}): ChatMessage {
  return {
    _id: id,
    sender: 'customer',
    message: `text ${id}`,
    message_type: 'text',
    payload: null,
    userId: '42',
    guestId: null,
    username: null,
    name: 'Somchai',
    createdAt: '2026-11-26T10:00:00.000Z',
    session_id: 's1',
    read: false,
    ...over,
  };
}

/** Minutes after 10:00 on the test day, as ISO text. */
export const at = (minutes: number) => new Date(Date.parse('2026-11-26T10:00:00.000Z') + minutes * 60_000).toISOString();
