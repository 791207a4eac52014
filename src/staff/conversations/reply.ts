import type { ReplyBody } from '../staffApi';
import type { ChatButton } from '../types';

/** The contract's cap on a chat message (spec §5: 2000 characters). */
export const MESSAGE_MAX = 2000;
/** Quick replies a staff message may offer (the bot's greeting offers four too). */
export const QUICK_REPLIES_MAX = 4;
/** A chip is a button on a phone's screen: a few words. */
export const QUICK_REPLY_TITLE_MAX = 40;

export type ChipRefusal = 'empty' | 'full' | 'duplicate';

/** Adds a quick reply chip (trimmed), or says why not. */
export function addChip(chips: readonly string[], title: string): { chips: string[] } | { refused: ChipRefusal } {
  const t = title.trim().slice(0, QUICK_REPLY_TITLE_MAX);
  if (!t) return { refused: 'empty' };
  if (chips.length >= QUICK_REPLIES_MAX) return { refused: 'full' };
  if (chips.some((c) => c.toLocaleLowerCase() === t.toLocaleLowerCase())) return { refused: 'duplicate' };
  return { chips: [...chips, t] };
}

export type ReplyRefusal = 'empty' | 'tooLong';

/**
 * The postback code of the n-th chip (from 1). The server takes only codes (`[A-Za-z0-9_.:-]`, so not a Thai
 * title) and the bot ignores codes it does not know; the customer's tap comes back with the chip's title as its
 * text, which the console shows as "Tapped: <title>".
 */
export const chipCode = (n: number) => `STAFF_REPLY_${n}`;

/** The reply's body: plain text, or with chips a 'quick_replies' message whose buttons are postbacks. */
export function buildReply(text: string, chips: readonly string[]): { body: ReplyBody } | { refused: ReplyRefusal } {
  const message = text.trim();
  if (!message) return { refused: 'empty' };
  if (message.length > MESSAGE_MAX) return { refused: 'tooLong' };
  if (chips.length === 0) return { body: { message, message_type: 'text' } };
  const quick_replies: ChatButton[] = chips.slice(0, QUICK_REPLIES_MAX).map((title, i) => ({ title, type: 'postback', payload: chipCode(i + 1) }));
  return { body: { message, message_type: 'quick_replies', payload: { quick_replies } } };
}
