import type { Kysely } from 'kysely';
import { withId } from '../portable';

/**
 * Issue 10: the support chat (docs/chat.md). One conversation per player and one per guest id; its messages (the
 * customer's, the bot's and staff's) with the session they belong to (a new session starts after staff close the
 * conversation); and the files customers uploaded (stored in DATA_DIR/chat-media under the row's random name).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('chat_conversations'))
    // Exactly one of the two is set; each is unique, so a player or a guest id has one conversation.
    .addColumn('player_id', 'bigint', (c) => c.unique().references('players.id'))
    .addColumn('guest_id', 'varchar(64)', (c) => c.unique())
    .addColumn('customer_name', 'varchar(128)') // what a guest typed as their name; players show players.name
    .addColumn('session_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('status', 'varchar(16)', (c) => c.notNull()) // open | waiting_staff | closed
    .addColumn('closed_at', 'varchar(32)')
    .addColumn('last_message_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_conversations_activity').on('chat_conversations').columns(['status', 'last_message_at']).execute();

  await withId(db, db.schema.createTable('chat_messages'))
    .addColumn('conversation_id', 'bigint', (c) => c.notNull().references('chat_conversations.id'))
    .addColumn('session_id', 'varchar(36)', (c) => c.notNull())
    .addColumn('sender', 'varchar(8)', (c) => c.notNull()) // customer | other
    .addColumn('author_kind', 'varchar(8)', (c) => c.notNull()) // customer | bot | staff
    .addColumn('staff_id', 'bigint', (c) => c.references('staff_users.id'))
    .addColumn('author_username', 'varchar(64)')
    .addColumn('author_name', 'varchar(128)')
    .addColumn('message_type', 'varchar(16)', (c) => c.notNull()) // text | buttons | media | quick_replies | generic | postback
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('payload', 'text') // JSON, or null
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('read_by_customer_at', 'varchar(32)')
    .addColumn('read_by_staff_at', 'varchar(32)')
    .execute();
  await db.schema.createIndex('chat_messages_conversation').on('chat_messages').columns(['conversation_id', 'id']).execute();
  await db.schema.createIndex('chat_messages_session').on('chat_messages').columns(['conversation_id', 'session_id', 'author_kind']).execute();

  await db.schema
    .createTable('chat_uploads')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey()) // 128 random bits, hex: the file's name and its URL
    .addColumn('ext', 'varchar(8)', (c) => c.notNull())
    .addColumn('player_id', 'bigint', (c) => c.references('players.id'))
    .addColumn('guest_id', 'varchar(64)')
    .addColumn('kind', 'varchar(8)', (c) => c.notNull()) // image | video
    .addColumn('content_type', 'varchar(64)', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('chat_uploads_player').on('chat_uploads').column('player_id').execute();
  await db.schema.createIndex('chat_uploads_guest').on('chat_uploads').column('guest_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of ['chat_uploads', 'chat_messages', 'chat_conversations']) await db.schema.dropTable(t).execute();
}
