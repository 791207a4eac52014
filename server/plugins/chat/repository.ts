import crypto from 'node:crypto';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { DB } from '../../db/schema';
import type { ChatConversationsTable, ChatMessagesTable, ChatUploadsTable, ConversationStatus } from '../../db/schema-chat';

/** SQL of the support chat (docs/chat.md). Every function takes the database or a transaction. */
type Db = Kysely<DB>;
export type ConversationRow = Selectable<ChatConversationsTable>;
export type MessageRow = Selectable<ChatMessagesTable>;
export type UploadRow = Selectable<ChatUploadsTable>;

/** Who is on the customer side of a conversation: a player, or a guest id. */
export type Customer = { playerId: number; guestId: null } | { playerId: null; guestId: string };

export const newSessionId = () => crypto.randomUUID();

export const findConversation = (db: Db, c: Customer) => {
  const q = db.selectFrom('chat_conversations').selectAll();
  return (c.playerId !== null ? q.where('player_id', '=', c.playerId) : q.where('guest_id', '=', c.guestId)).executeTakeFirst();
};

export const findConversationById = (db: Db, id: number) => db.selectFrom('chat_conversations').selectAll().where('id', '=', id).executeTakeFirst();

/**
 * The customer's conversation, created on first use. Two first messages at once both insert; the unique owner
 * column keeps one row and the other insert does nothing.
 */
export async function ensureConversation(db: Db, c: Customer, now: string): Promise<ConversationRow> {
  await db
    .insertInto('chat_conversations')
    .values({ player_id: c.playerId, guest_id: c.guestId, customer_name: null, session_id: newSessionId(), status: 'open', closed_at: null, last_message_at: now, created_at: now })
    .onConflict((oc) => oc.column(c.playerId !== null ? 'player_id' : 'guest_id').doNothing())
    .execute();
  return (await findConversation(db, c)) as ConversationRow;
}

/**
 * Takes the conversation's row lock for the rest of the transaction (PostgreSQL; SQLite transactions are serial
 * anyway) by recording the activity, so concurrent messages of one conversation see each other's session changes.
 */
export async function touchConversation(db: Db, id: number, now: string, set: Partial<Pick<ConversationRow, 'customer_name'>> = {}): Promise<ConversationRow> {
  await db.updateTable('chat_conversations').set({ last_message_at: now, ...set }).where('id', '=', id).execute();
  return (await findConversationById(db, id)) as ConversationRow;
}

/** A closed conversation opens again with a new session (its end marker stays with the old one). */
export async function reopen(db: Db, id: number): Promise<void> {
  await db.updateTable('chat_conversations').set({ session_id: newSessionId(), status: 'open', closed_at: null }).where('id', '=', id).where('status', '=', 'closed').execute();
}

export async function setStatus(db: Db, id: number, status: ConversationStatus, closedAt: string | null = null): Promise<number> {
  const r = await db
    .updateTable('chat_conversations')
    .set({ status, closed_at: closedAt })
    .where('id', '=', id)
    .where('status', status === 'closed' ? '!=' : 'in', status === 'closed' ? 'closed' : ['open', 'waiting_staff'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export type NewMessage = Omit<ChatMessagesTable, 'id' | 'read_by_customer_at' | 'read_by_staff_at'>;

export async function insertMessage(db: Db, m: NewMessage): Promise<MessageRow> {
  return db.insertInto('chat_messages').values({ ...m, read_by_customer_at: null, read_by_staff_at: null }).returningAll().executeTakeFirstOrThrow();
}

/** How many messages of each author kind the session has (the bot answers the first one; staff quiet it). */
export async function sessionAuthors(db: Db, conversationId: number, sessionId: string): Promise<{ customer: number; staff: number }> {
  const rows = await db
    .selectFrom('chat_messages')
    .select(['author_kind', (eb) => eb.fn.countAll<number>().as('n')])
    .where('conversation_id', '=', conversationId)
    .where('session_id', '=', sessionId)
    .groupBy('author_kind')
    .execute();
  const n = (k: string) => Number(rows.find((r) => r.author_kind === k)?.n ?? 0);
  return { customer: n('customer'), staff: n('staff') };
}

export async function countMessages(db: Db, conversationId: number): Promise<number> {
  const r = await db.selectFrom('chat_messages').select((eb) => eb.fn.countAll<number>().as('n')).where('conversation_id', '=', conversationId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The `limit` messages before the `skip` newest, oldest first. */
export async function pageMessages(db: Db, conversationId: number, skip: number, limit: number): Promise<MessageRow[]> {
  const rows = await db.selectFrom('chat_messages').selectAll().where('conversation_id', '=', conversationId).orderBy('id', 'desc').limit(limit).offset(skip).execute();
  return rows.reverse();
}

/** Bot and staff messages the customer has not seen. */
export async function countUnreadByCustomer(db: Db, conversationId: number): Promise<number> {
  const r = await db
    .selectFrom('chat_messages')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('conversation_id', '=', conversationId)
    .where('sender', '=', 'other')
    .where('read_by_customer_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function markReadByCustomer(db: Db, conversationId: number, now: string): Promise<number> {
  const r = await db
    .updateTable('chat_messages')
    .set({ read_by_customer_at: now })
    .where('conversation_id', '=', conversationId)
    .where('sender', '=', 'other')
    .where('read_by_customer_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

export async function markReadByStaff(db: Db, conversationId: number, now: string): Promise<number> {
  const r = await db
    .updateTable('chat_messages')
    .set({ read_by_staff_at: now })
    .where('conversation_id', '=', conversationId)
    .where('sender', '=', 'customer')
    .where('read_by_staff_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** A conversation as the staff list shows it: the owner's name, the last message, customer messages unread by staff. */
export interface SummaryRow extends ConversationRow {
  player_name: string | null;
  unread: number;
  last_message: string | null;
  last_type: string | null;
  last_payload: string | null;
}

export type ListFilter = 'open' | 'closed' | 'all';

export async function listSummaries(db: Db, filter: ListFilter, opts: { id?: number; limit?: number } = {}): Promise<SummaryRow[]> {
  let q = db
    .selectFrom('chat_conversations as c')
    .leftJoin('players as p', 'p.id', 'c.player_id')
    .selectAll('c')
    .select((eb) => [
      'p.name as player_name',
      eb
        .selectFrom('chat_messages as u')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('u.conversation_id', '=', 'c.id')
        .where('u.sender', '=', 'customer')
        .where('u.read_by_staff_at', 'is', null)
        .as('unread'),
      eb.selectFrom('chat_messages as m').select('m.message').whereRef('m.conversation_id', '=', 'c.id').orderBy('m.id', 'desc').limit(1).as('last_message'),
      eb.selectFrom('chat_messages as m').select('m.message_type').whereRef('m.conversation_id', '=', 'c.id').orderBy('m.id', 'desc').limit(1).as('last_type'),
      eb.selectFrom('chat_messages as m').select('m.payload').whereRef('m.conversation_id', '=', 'c.id').orderBy('m.id', 'desc').limit(1).as('last_payload'),
    ]);
  if (opts.id !== undefined) q = q.where('c.id', '=', opts.id);
  if (filter === 'open') q = q.where('c.status', 'in', ['open', 'waiting_staff']);
  if (filter === 'closed') q = q.where('c.status', '=', 'closed');
  // Guest ids are free to mint, so guests must never push players out of the list's 200 (docs/chat.md "Staff
  // routes"): players first, then guests; in each, those waiting for staff first; then newest activity.
  const rank = sql<number>`(case when c.player_id is null then 2 else 0 end) + (case when c.status = 'waiting_staff' then 0 else 1 end)`;
  const rows = await q.orderBy(rank, 'asc').orderBy('c.last_message_at', 'desc').orderBy('c.id', 'desc').limit(opts.limit ?? 200).execute();
  return rows.map((r) => ({ ...r, unread: Number(r.unread ?? 0) }) as SummaryRow);
}

export const playerName = (db: Db, playerId: number) => db.selectFrom('players').select(['name', 'phone']).where('id', '=', playerId).executeTakeFirst();

// ---- uploads

export async function insertUpload(db: Db, u: ChatUploadsTable): Promise<void> {
  await db.insertInto('chat_uploads').values(u).execute();
}

export const findUpload = (db: Db, id: string) => db.selectFrom('chat_uploads').selectAll().where('id', '=', id).executeTakeFirst();

// ---- adoption

/**
 * A guest who logged in: the guest's conversation and uploads become the player's, in the caller's transaction.
 * Without a player conversation the guest's row itself changes hands (session and status kept); otherwise its
 * messages move to the player's conversation and the guest's row is deleted. Either way the guest id is free
 * again afterwards. Answers whether there was anything to adopt.
 */
export async function adoptGuest(db: Db, guestId: string, playerId: number): Promise<boolean> {
  await db.updateTable('chat_uploads').set({ player_id: playerId, guest_id: null }).where('guest_id', '=', guestId).execute();
  const guest = await findConversation(db, { playerId: null, guestId });
  if (!guest) return false;
  const mine = await findConversation(db, { playerId, guestId: null });
  if (!mine) {
    const r = await db.updateTable('chat_conversations').set({ player_id: playerId, guest_id: null }).where('id', '=', guest.id).where('guest_id', '=', guestId).executeTakeFirst();
    return Number(r.numUpdatedRows) > 0;
  }
  await touchConversation(db, mine.id, guest.last_message_at > mine.last_message_at ? guest.last_message_at : mine.last_message_at);
  await db.updateTable('chat_messages').set({ conversation_id: mine.id }).where('conversation_id', '=', guest.id).execute();
  const r = await db.deleteFrom('chat_conversations').where('id', '=', guest.id).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
