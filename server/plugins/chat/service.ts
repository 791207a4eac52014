import type { Kysely } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { DB } from '../../db/schema';
import type { Realtime } from '../../realtime';
import { badRequest, notFound, tooMany, unauthorized } from '../../errors';
import { isUniqueViolation } from '../../db/portable';
import { BOT_NAME, BOT_USERNAME, botAnswer, type ChatLocale } from './bot';
import * as repo from './repository';
import type { ConversationRow, Customer, ListFilter, MessageRow } from './repository';
import type { SendLimiter } from './send-limit';
import { toSummary, toWire, type ChatMessageWire, type ConversationSummary } from './wire';

/**
 * The support chat's rules (docs/chat.md): who the caller is, sending (with the bot's answer), history, read
 * marks, and the staff side. Every change is committed before it is emitted, so a socket never announces a
 * message the history does not have.
 */
export interface ChatDeps {
  db: Kysely<DB>;
  realtime: Realtime;
  limiter: SendLimiter;
  /** Per client address: guest ids issued, and guests' messages (docs/chat.md "Guests"). */
  guestIds: SendLimiter;
  guestSends: SendLimiter;
  /** The request's client address (request.ip under TRUST_PROXY), on a request's copy of the service. */
  address?: string;
  now(): Date;
  log: FastifyBaseLogger;
  /** Emits to the staff console's sockets (the /staff namespace). */
  toStaff(event: 'conversation' | 'messaging', data: unknown): void;
}

export interface IdentityFields {
  userId?: string | null;
  guestId?: string | null;
}

export interface SendInput {
  message: string;
  message_type: 'text' | 'postback' | 'media';
  payload?: Record<string, unknown> | null;
  name?: string | null;
  locale?: ChatLocale;
}

export interface StaffAuthor {
  staffId: number;
  username: string;
  name: string;
}

export interface ReplyInput {
  message: string;
  message_type: 'text' | 'quick_replies';
  payload?: Record<string, unknown> | null;
}

/** A media message's file: an upload of the same customer, by its URL. */
export const MEDIA_URL = /^\/api\/chat\/media\/([0-9a-f]{32})\.(png|jpg|gif|mp4|mov)$/;
const POSTBACK_CODE = /^[A-Za-z0-9_.:-]{1,64}$/;

const invalid = () => badRequest('INVALID_USER_INFO');
const iso = (d: Date) => d.toISOString();
const blank = (v: string | null | undefined) => v === undefined || v === null || v === '';

interface Content {
  message: string;
  message_type: 'text' | 'postback' | 'media' | 'quick_replies';
  payload: Record<string, unknown> | null;
}

export class ChatService {
  constructor(private readonly deps: ChatDeps) {}

  /**
   * The same service for one request: its lines go through the request's logger (with its id, docs/operations.md).
   * A new instance over the same dependencies: the service keeps no state of its own, and must not (a request's copy
   * would not share it).
   */
  forRequest(req: { log: FastifyBaseLogger; ip?: string }): ChatService {
    return new ChatService({ ...this.deps, log: req.log, address: req.ip });
  }

  private get db() {
    return this.deps.db;
  }

  // ---- identity

  /**
   * The customer a call acts for (contract "Identities"): the token's player (a body userId must be theirs), or
   * a guest id this server issued. A player who also sends a valid guest id adopts that guest's conversation.
   */
  async customerOf(playerId: number | null, fields: IdentityFields): Promise<Customer> {
    const userId = blank(fields.userId) ? null : fields.userId;
    const guestId = blank(fields.guestId) ? null : fields.guestId;
    if (playerId) {
      if (userId !== null && userId !== String(playerId)) throw unauthorized('UNAUTHORIZED');
      if (guestId !== null) {
        if (!this.deps.realtime.guestIds.verify(guestId)) throw unauthorized('UNAUTHORIZED');
        await this.adopt(guestId, playerId);
      }
      return { playerId, guestId: null };
    }
    if (userId !== null || guestId === null || !this.deps.realtime.guestIds.verify(guestId)) throw unauthorized('UNAUTHORIZED');
    return { playerId: null, guestId };
  }

  /** Moves a guest's conversation and uploads to the player (one transaction); nothing when the guest has none. */
  async adopt(guestId: string, playerId: number): Promise<void> {
    const has =
      (await repo.findConversation(this.db, { playerId: null, guestId })) ??
      (await this.db.selectFrom('chat_uploads').select('id').where('guest_id', '=', guestId).executeTakeFirst());
    if (!has) return;
    const run = () => this.db.transaction().execute((trx) => repo.adoptGuest(trx, guestId, playerId));
    let adopted: boolean;
    try {
      adopted = await run();
    } catch (e) {
      // The player's own first message created their conversation at the same moment: move the messages instead.
      if (!isUniqueViolation(e)) throw e;
      adopted = await run();
    }
    if (adopted) await this.emitSummary((await repo.findConversation(this.db, { playerId, guestId: null }))?.id);
  }

  // ---- customer side

  /**
   * POST /api/chat/guest: a new guest id, at most CHAT_GUEST_IDS_PER_HOUR per client address (429 REQUEST_LIMIT):
   * ids are free to mint, and each one brings its own send limit and conversation in the console.
   */
  async issueGuestId(): Promise<string> {
    if (this.deps.address !== undefined && !(await this.deps.guestIds.hit(`a:${this.deps.address}`, this.deps.now(), this.deps.log))) throw tooMany('REQUEST_LIMIT');
    return this.deps.realtime.guestIds.issue();
  }

  async send(c: Customer, input: SendInput): Promise<{ _id: string; createdAt: string; session_id: string }> {
    const content = await this.customerContent(c, input);
    const now = this.deps.now();
    if (!(await this.deps.limiter.hit(c.playerId !== null ? `p${c.playerId}` : c.guestId, now, this.deps.log))) throw tooMany('REQUEST_LIMIT');
    // Guests of one address share CHAT_GUEST_SENDS_PER_MINUTE, so many ids do not make many budgets; players never count.
    if (c.guestId !== null && this.deps.address !== undefined && !(await this.deps.guestSends.hit(`a:${this.deps.address}`, now, this.deps.log))) {
      throw tooMany('REQUEST_LIMIT');
    }
    const guestName = c.guestId !== null && input.name?.trim() ? input.name.trim() : undefined;
    const author = await this.customerAuthor(c);
    const { conv, row, first, staffAnswered } = await this.db.transaction().execute(async (trx) => {
      let conv = await repo.ensureConversation(trx, c, iso(now));
      conv = await repo.touchConversation(trx, conv.id, iso(now), guestName ? { customer_name: guestName } : {});
      if (conv.status === 'closed') {
        await repo.reopen(trx, conv.id);
        conv = (await repo.findConversationById(trx, conv.id)) as ConversationRow;
      }
      const row = await repo.insertMessage(trx, {
        conversation_id: conv.id,
        session_id: conv.session_id,
        sender: 'customer',
        author_kind: 'customer',
        staff_id: null,
        author_username: author.username,
        author_name: guestName ?? author.name ?? conv.customer_name,
        message_type: content.message_type,
        message: content.message,
        payload: content.payload ? JSON.stringify(content.payload) : null,
        created_at: iso(now),
      });
      const counts = await repo.sessionAuthors(trx, conv.id, conv.session_id);
      return { conv, row, first: counts.customer === 1, staffAnswered: counts.staff > 0 };
    });
    this.emitMessage(conv, row);
    if (!staffAnswered) await this.runBot(conv, content, first, input.locale ?? 'th');
    await this.emitSummary(conv.id);
    return { _id: String(row.id), createdAt: row.created_at, session_id: row.session_id };
  }

  async history(c: Customer, skip: number, limit: number) {
    const conv = await repo.findConversation(this.db, c);
    if (!conv) return { total: 0, messages: [] as ChatMessageWire[], closed: false, unread: 0 };
    const [total, rows, unread] = await Promise.all([
      repo.countMessages(this.db, conv.id),
      repo.pageMessages(this.db, conv.id, skip, limit),
      repo.countUnreadByCustomer(this.db, conv.id),
    ]);
    return { total, messages: rows.map((r) => toWire(r, conv)), closed: conv.status === 'closed', unread };
  }

  async readCustomer(c: Customer): Promise<{ read: number }> {
    const conv = await repo.findConversation(this.db, c);
    if (!conv) return { read: 0 };
    const read = await repo.markReadByCustomer(this.db, conv.id, iso(this.deps.now()));
    if (read > 0) await this.emitSummary(conv.id);
    return { read };
  }

  // ---- staff side

  async list(filter: ListFilter): Promise<{ conversations: ConversationSummary[] }> {
    return { conversations: (await repo.listSummaries(this.db, filter)).map(toSummary) };
  }

  async staffHistory(id: string, skip: number, limit: number) {
    const conv = await this.conversation(id);
    const [total, rows] = await Promise.all([repo.countMessages(this.db, conv.id), repo.pageMessages(this.db, conv.id, skip, limit)]);
    return { total, messages: rows.map((r) => toWire(r, conv)), closed: conv.status === 'closed' };
  }

  async reply(id: string, staff: StaffAuthor, input: ReplyInput): Promise<{ _id: string; createdAt: string }> {
    const content = staffContent(input);
    const { id: convId } = await this.conversation(id);
    const now = iso(this.deps.now());
    const { conv, row } = await this.db.transaction().execute(async (trx) => {
      let conv = await repo.touchConversation(trx, convId, now);
      // A reply to a closed conversation starts a new session; one to a waiting customer ends the wait.
      if (conv.status === 'closed') await repo.reopen(trx, conv.id);
      else if (conv.status === 'waiting_staff') await repo.setStatus(trx, conv.id, 'open');
      conv = (await repo.findConversationById(trx, conv.id)) as ConversationRow;
      const row = await repo.insertMessage(trx, {
        conversation_id: conv.id,
        session_id: conv.session_id,
        sender: 'other',
        author_kind: 'staff',
        staff_id: staff.staffId,
        author_username: staff.username,
        author_name: staff.name,
        message_type: content.message_type,
        message: content.message,
        payload: content.payload ? JSON.stringify(content.payload) : null,
        created_at: now,
      });
      return { conv, row };
    });
    this.emitMessage(conv, row);
    await this.emitSummary(conv.id);
    return { _id: String(row.id), createdAt: row.created_at };
  }

  async close(id: string): Promise<{ ok: true }> {
    const conv = await this.conversation(id);
    const at = iso(this.deps.now());
    if ((await repo.setStatus(this.db, conv.id, 'closed', at)) > 0) {
      this.toCustomer(conv, 'messaging', { type: 'end', session_id: conv.session_id, at });
      await this.emitSummary(conv.id);
    }
    return { ok: true };
  }

  async staffRead(id: string): Promise<{ read: number }> {
    const conv = await this.conversation(id);
    const read = await repo.markReadByStaff(this.db, conv.id, iso(this.deps.now()));
    if (read > 0) await this.emitSummary(conv.id);
    return { read };
  }

  // ---- internals

  private async conversation(id: string): Promise<ConversationRow> {
    const n = /^[1-9][0-9]{0,14}$/.test(id) ? Number(id) : NaN;
    const conv = Number.isSafeInteger(n) ? await repo.findConversationById(this.db, n) : undefined;
    if (!conv) throw notFound('NO_DATA');
    return conv;
  }

  private async customerAuthor(c: Customer): Promise<{ username: string | null; name: string | null }> {
    if (c.playerId === null) return { username: null, name: null };
    const p = await repo.playerName(this.db, c.playerId);
    return { username: p?.phone ?? null, name: p?.name ?? null };
  }

  /** What a customer may send: text and postbacks with a non-blank text, media of their own upload. */
  private async customerContent(c: Customer, input: SendInput): Promise<Content> {
    const payload = input.payload ?? null;
    switch (input.message_type) {
      case 'text':
        if (!input.message.trim() || payload !== null) throw invalid();
        return { message_type: 'text', message: input.message.trim(), payload: null };
      case 'postback': {
        const code = payload?.payload;
        if (!input.message.trim() || typeof code !== 'string' || !POSTBACK_CODE.test(code)) throw invalid();
        return { message_type: 'postback', message: input.message.trim(), payload: { payload: code } };
      }
      case 'media': {
        const p = payload ?? {};
        const m = typeof p.filePath === 'string' ? MEDIA_URL.exec(p.filePath) : null;
        const caption = p.message === undefined ? '' : p.message;
        if (!m || typeof caption !== 'string' || caption.length > 2000 || (p.url !== undefined && typeof p.url !== 'boolean')) throw invalid();
        const upload = await repo.findUpload(this.db, m[1]);
        const owned = upload && upload.ext === m[2] && (c.playerId !== null ? Number(upload.player_id) === c.playerId : upload.guest_id === c.guestId);
        if (!owned || (p.fileType !== undefined && p.fileType !== upload.kind)) throw invalid();
        return {
          message_type: 'media',
          message: input.message.trim(),
          payload: { message: caption, url: true, fileType: upload.kind, filePath: p.filePath as string },
        };
      }
    }
  }

  private async runBot(conv: ConversationRow, content: Content, first: boolean, locale: ChatLocale): Promise<void> {
    const kind = content.message_type === 'postback' ? 'postback' : content.message_type === 'media' ? 'media' : 'text';
    const text = kind === 'postback' ? String(content.payload?.payload) : content.message;
    const answer = botAnswer({ kind, text, firstOfSession: first, locale, guest: conv.player_id === null });
    if (!answer.messages.length && !answer.waitingStaff) return;
    const now = iso(this.deps.now());
    const rows = await this.db.transaction().execute(async (trx) => {
      const out: MessageRow[] = [];
      for (const m of answer.messages) {
        out.push(
          await repo.insertMessage(trx, {
            conversation_id: conv.id,
            session_id: conv.session_id,
            sender: 'other',
            author_kind: 'bot',
            staff_id: null,
            author_username: BOT_USERNAME,
            author_name: BOT_NAME[locale],
            message_type: m.message_type,
            message: m.message,
            payload: m.payload ? JSON.stringify(m.payload) : null,
            created_at: now,
          }),
        );
      }
      if (answer.waitingStaff) await repo.setStatus(trx, conv.id, 'waiting_staff');
      return out;
    });
    for (const row of rows) this.emitMessage(conv, row);
  }

  private toCustomer(conv: Pick<ConversationRow, 'player_id' | 'guest_id'>, event: string, data: unknown): void {
    if (conv.player_id !== null) this.deps.realtime.toPlayer(conv.player_id, event, data);
    else if (conv.guest_id !== null) this.deps.realtime.toGuest(conv.guest_id, event, data);
  }

  private emitMessage(conv: ConversationRow, row: MessageRow): void {
    const message = toWire(row, conv);
    this.toCustomer(conv, 'messaging', { type: 'message', message });
    this.deps.toStaff('messaging', { conversationId: String(conv.id), message });
  }

  private async emitSummary(conversationId: number | undefined): Promise<void> {
    if (conversationId === undefined) return;
    try {
      const [row] = await repo.listSummaries(this.db, 'all', { id: conversationId, limit: 1 });
      if (row) this.deps.toStaff('conversation', toSummary(row));
    } catch (e) {
      // The change is committed; a missed console update is fixed by its next list load.
      this.deps.log.warn({ err: (e as Error).message }, 'chat: staff summary not sent');
    }
  }
}

/** What staff may send: text, or a prompt with quick replies (postback buttons). */
function staffContent(input: ReplyInput): Content {
  const message = input.message.trim();
  if (!message) throw invalid();
  if (input.message_type === 'text') {
    if (input.payload !== undefined && input.payload !== null) throw invalid();
    return { message_type: 'text', message, payload: null };
  }
  const replies = input.payload?.quick_replies;
  if (!Array.isArray(replies) || replies.length < 1 || replies.length > 10) throw invalid();
  const buttons = replies.map((b: unknown) => {
    const o = (b && typeof b === 'object' ? b : {}) as Record<string, unknown>;
    const title = typeof o.title === 'string' ? o.title.trim() : '';
    if (!title || title.length > 80 || o.type !== 'postback' || typeof o.payload !== 'string' || !POSTBACK_CODE.test(o.payload)) throw invalid();
    return { title, type: 'postback' as const, payload: o.payload };
  });
  return { message_type: 'quick_replies', message, payload: { quick_replies: buttons } };
}

