import type { ChatMessage, ConversationSummary } from '../types';
import type { TextKey } from '../i18n/texts';

/** Who the staff member is talking to: a player (id and name from the wallet) or a guest. */
export type Customer = { kind: 'player'; id: string; name: string | null } | { kind: 'guest' };

/**
 * A guest's id is the secret that opens the guest's conversation (chat contract "Identities"), so the console
 * never shows it: a guest is only "Guest".
 */
export function customerOf(who: Pick<ConversationSummary, 'userId' | 'name'>): Customer {
  return who.userId ? { kind: 'player', id: String(who.userId), name: who.name?.trim() || null } : { kind: 'guest' };
}

export type Sender = { kind: 'customer' } | { kind: 'bot'; name: string | null } | { kind: 'staff'; name: string | null };

/** Bot messages carry username 'bot' (contract "Bot"); any other 'other' message is a staff reply. */
export function senderOf(message: Pick<ChatMessage, 'sender' | 'username' | 'name'>): Sender {
  if (message.sender === 'customer') return { kind: 'customer' };
  const name = message.name?.trim() || message.username?.trim() || null;
  return message.username === 'bot' ? { kind: 'bot', name: message.name?.trim() || null } : { kind: 'staff', name };
}

/** The customer as the console names them: "Somchai (player 42)", "Player 42" or "Guest". */
export function customerLabel(customer: Customer, t: (key: TextKey, values?: Record<string, string | number>) => string): string {
  if (customer.kind === 'guest') return t('customer.guest');
  return customer.name ? t('customer.playerNamed', { name: customer.name, id: customer.id }) : t('customer.player', { id: customer.id });
}

/** Who the customer of a conversation is, from its messages when no summary is at hand (a deep link). */
export function customerFromMessages(messages: readonly ChatMessage[]): Pick<ConversationSummary, 'userId' | 'name'> {
  const own = messages.find((m) => m.sender === 'customer' && m.userId) ?? messages.find((m) => m.sender === 'customer');
  return { userId: own?.userId ?? null, name: own?.name ?? null };
}
