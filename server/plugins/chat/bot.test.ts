import { buildTestApp, type TestApp } from '../../test/support/helper';
import { createStaff } from '../../test/support/staff';
import { BOT_NAME, BOT_POSTBACKS, botAnswer, handoffOf, PLAYER_HOWTO, topicOf, type ChatLocale } from './bot';
import { call, history, newGuest, newPlayer, sendText, type Caller } from '../../test/support/chat';

/** The support bot: its answers in th, la and en, the postbacks, keywords, and its silence once staff answered. */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ RATE_LIMIT_PER_MINUTE: '0' });
});
afterAll(async () => t?.close());

interface Button { title: string; type: string; payload: string }
interface Msg { sender: string; username: string | null; name: string | null; message: string; message_type: string; payload: Record<string, unknown> | null }

/** The bot's messages that answered the customer's last message. */
async function answerTo(who: Caller, send: () => Promise<{ statusCode: number }>): Promise<Msg[]> {
  const before = ((await history(t.app, who, { limit: 50 })).json() as { total: number }).total;
  expect((await send()).statusCode).toBe(200);
  const h = (await history(t.app, who, { limit: 50 })).json() as { total: number; messages: Msg[] };
  return h.messages.slice(before - h.total).filter((m) => m.sender === 'other');
}
const postback = (who: Caller, code: string, locale: ChatLocale) =>
  call(t.app, 'POST', '/api/chat/send-message', who, { message: code.toLowerCase(), message_type: 'postback', payload: { payload: code }, locale });
const webTargets = (msgs: Msg[]) =>
  msgs.flatMap((m) => [
    ...(((m.payload?.buttons as Button[]) ?? []).map((b) => `${b.type}:${b.payload}`)),
    ...(((m.payload?.elements as { buttons: Button[] }[]) ?? []).flatMap((e) => e.buttons.map((b) => `${b.type}:${b.payload}`))),
  ]);

const SCRIPTS: Record<ChatLocale, RegExp> = { th: /[\u0E00-\u0E7F]/, la: /[\u0E80-\u0EFF]/, en: /^[\x20-\x7E]+$/ };
const inScript = (locale: ChatLocale, text: string) => expect([text, SCRIPTS[locale].test(text)]).toEqual([text, true]);

describe.each(['th', 'la', 'en'] as const)('in %s', (locale) => {
  const inLanguage = (text: string) => expect([text, SCRIPTS[locale].test(text)]).toEqual([text, true]);

  test('the first message gets a greeting with four quick replies, each answered with help and links', async () => {
    const g = await newGuest(t.app);
    const greeting = await answerTo(g, () => sendText(t.app, g, 'hi', { locale }));
    expect(greeting).toHaveLength(1);
    expect(greeting[0]).toMatchObject({ message_type: 'quick_replies', username: 'bot', name: BOT_NAME[locale] });
    inLanguage(greeting[0].message);
    const replies = greeting[0].payload?.quick_replies as Button[];
    expect(replies.map((b) => [b.type, b.payload])).toEqual(BOT_POSTBACKS.map((code) => ['postback', code]));
    replies.forEach((b) => inLanguage(b.title));

    const deposit = await answerTo(g, () => postback(g, 'HELP_DEPOSIT', locale));
    expect(deposit.map((m) => m.message_type)).toEqual(['buttons', 'generic']);
    deposit.forEach((m) => inLanguage(m.message));
    expect(webTargets(deposit)).toEqual(['web:/user/home', 'web:/howto', 'web:/howto']);
    expect(deposit[1].payload?.elements).toEqual([expect.objectContaining({ image_url: '/media/howto/wallet.jpg', title: expect.any(String), subtitle: expect.any(String) })]);

    const withdraw = await answerTo(g, () => postback(g, 'HELP_WITHDRAW', locale));
    expect([withdraw.map((m) => m.message_type), webTargets(withdraw)]).toEqual([['buttons'], ['web:/user/home']]);
    inLanguage(withdraw[0].message);

    const bonus = await answerTo(g, () => postback(g, 'HELP_BONUS', locale));
    expect(bonus.map((m) => m.message_type)).toEqual(['buttons', 'generic']);
    expect(webTargets(bonus)).toEqual(['web:/user/bonus', 'web:/user/bonus', 'web:/howto']);

    const conv = () => t.db.db.selectFrom('chat_conversations').select('status').where('guest_id', '=', g.guestId).executeTakeFirstOrThrow();
    expect((await conv()).status).toBe('open');
    const staff = await answerTo(g, () => postback(g, 'TALK_TO_STAFF', locale));
    expect(staff.map((m) => m.message_type)).toEqual(['text']);
    inLanguage(staff[0].message);
    expect((await conv()).status).toBe('waiting_staff');
  });
});

test('typed keywords in each language get the topic; other texts after the first get nothing; unknown postbacks nothing', async () => {
  const g = await newGuest(t.app);
  await sendText(t.app, g, 'hello', { locale: 'en' });
  expect(await answerTo(g, () => sendText(t.app, g, 'thanks, bye'))).toEqual([]);
  expect(await answerTo(g, () => postback(g, 'SOMETHING_ELSE', 'en'))).toEqual([]);
  const topics: [string, ChatLocale, string][] = [
    ['How do I DEPOSIT?', 'en', 'web:/howto'],
    ['ฝากเงินยังไง', 'th', 'web:/howto'],
    ['ຝາກເງິນແນວໃດ', 'la', 'web:/howto'],
    ['ถอนเงินไม่ได้', 'th', 'web:/user/home'],
    ['ຖອນເງິນ', 'la', 'web:/user/home'],
    ['any bonus today?', 'en', 'web:/user/bonus'],
    ['ขอโบนัส', 'th', 'web:/user/bonus'],
    ['ໂບນັດ', 'la', 'web:/user/bonus'],
  ];
  for (const [text, locale, target] of topics) {
    const answer = await answerTo(g, () => sendText(t.app, g, text, { locale }));
    expect([text, webTargets(answer).includes(target), answer[0]?.name]).toEqual([text, true, BOT_NAME[locale]]);
  }
  // A guest's first message naming a topic: the greeting, then the topic.
  const h = await newGuest(t.app);
  expect((await answerTo(h, () => sendText(t.app, h, 'ขอคุยกับเจ้าหน้าที่', { locale: 'th' }))).map((m) => m.message_type)).toEqual(['quick_replies', 'text']);
  // No locale: Thai, the default.
  const d = await newGuest(t.app);
  expect((await answerTo(d, () => sendText(t.app, d, 'hi')))[0].name).toBe(BOT_NAME.th);
});

test.each(['th', 'la', 'en'] as const)(
  'in %s a player is never sent to a public page (it would end the session): the how-to videos of /user/contact instead of /howto',
  async (locale) => {
    const p = await newPlayer(t.app);
    await sendText(t.app, p, 'hello', { locale });
    const deposit = await answerTo(p, () => postback(p, 'HELP_DEPOSIT', locale));
    expect(webTargets(deposit)).toEqual(['web:/user/home', `web:${PLAYER_HOWTO}`, `web:${PLAYER_HOWTO}`]);
    const bonus = await answerTo(p, () => postback(p, 'HELP_BONUS', locale));
    expect(webTargets(bonus)).toEqual(['web:/user/bonus', 'web:/user/bonus', `web:${PLAYER_HOWTO}`]);
    const typed = await answerTo(p, () => sendText(t.app, p, { th: 'ฝากเงินยังไง', la: 'ຝາກເງິນແນວໃດ', en: 'how to deposit' }[locale], { locale }));
    expect(webTargets(typed).filter((target) => target.includes('howto'))).toEqual([`web:${PLAYER_HOWTO}`, `web:${PLAYER_HOWTO}`]);
    expect(PLAYER_HOWTO.startsWith('/user/')).toBe(true);
  },
);

/** What customers write when a payment has not arrived or they want a person, with the hand-off each gets. */
const HANDOFFS: [string, ChatLocale, 'MISSING_DEPOSIT' | 'MISSING_WITHDRAWAL' | 'TALK_TO_STAFF'][] = [
  ['I deposited and it has not arrived', 'en', 'MISSING_DEPOSIT'],
  ["My deposit hasn't arrived yet", 'en', 'MISSING_DEPOSIT'],
  ['Money not credited', 'en', 'MISSING_DEPOSIT'],
  ['I paid, still waiting', 'en', 'MISSING_DEPOSIT'],
  ['I topped up 500 but did not receive it', 'en', 'MISSING_DEPOSIT'],
  ['I withdrew 1000 and did not receive it', 'en', 'MISSING_WITHDRAWAL'],
  ['My withdrawal is missing', 'en', 'MISSING_WITHDRAWAL'],
  ['Can I talk to a person?', 'en', 'TALK_TO_STAFF'],
  ['real person please', 'en', 'TALK_TO_STAFF'],
  ['ฝากเงินแล้วยังไม่เข้า', 'th', 'MISSING_DEPOSIT'],
  ['ฝากแล้วไม่เข้า', 'th', 'MISSING_DEPOSIT'],
  ['โอนแล้ว เงินยังไม่เข้า', 'th', 'MISSING_DEPOSIT'],
  ['เติมเงินไม่เข้าค่ะ', 'th', 'MISSING_DEPOSIT'],
  ['ยอดไม่ขึ้น', 'th', 'MISSING_DEPOSIT'],
  ['ถอนเงินแล้วยังไม่ได้รับ', 'th', 'MISSING_WITHDRAWAL'],
  ['ถอนแล้วยังไม่ได้', 'th', 'MISSING_WITHDRAWAL'],
  ['ถอนเงิน ไม่เข้าบัญชี', 'th', 'MISSING_WITHDRAWAL'],
  ['ขอคุยกับคนจริง', 'th', 'TALK_TO_STAFF'],
  ['ติดต่อเจ้าหน้าที่หน่อย', 'th', 'TALK_TO_STAFF'],
  ['ຝາກເງິນແລ້ວຍັງບໍ່ເຂົ້າ', 'la', 'MISSING_DEPOSIT'],
  ['ຝາກແລ້ວບໍ່ເຂົ້າ', 'la', 'MISSING_DEPOSIT'],
  ['ເຕີມເງິນບໍ່ໄດ້ຮັບ', 'la', 'MISSING_DEPOSIT'],
  ['ຖອນເງິນແລ້ວຍັງບໍ່ໄດ້ຮັບ', 'la', 'MISSING_WITHDRAWAL'],
  ['ຖອນແລ້ວຍັງບໍ່ໄດ້', 'la', 'MISSING_WITHDRAWAL'],
  ['ຂໍລົມກັບຄົນແທ້', 'la', 'TALK_TO_STAFF'],
  ['ຕິດຕໍ່ພະນັກງານແດ່', 'la', 'TALK_TO_STAFF'],
];

test.each(HANDOFFS)('"%s" (%s) goes to a person: %s, no how-to, the conversation waits for staff', async (text, locale, handoff) => {
  expect(handoffOf(text)).toBe(handoff);
  // A guest and a player, as the first message of a session and as a later one: the same hand-off, never the how-to.
  for (const [make, first] of [[newGuest, true], [newGuest, false], [newPlayer, true], [newPlayer, false]] as const) {
    const who = await make(t.app);
    if (!first) expect((await sendText(t.app, who, 'hello', { locale })).statusCode).toBe(200);
    const answer = await answerTo(who, () => sendText(t.app, who, text, { locale }));
    expect([text, answer.map((m) => m.message_type), webTargets(answer), answer[0]?.name]).toEqual([text, ['text'], [], BOT_NAME[locale]]);
    inScript(locale, answer[0].message);
    const conv = await t.db.db
      .selectFrom('chat_conversations')
      .select('status')
      .where((eb) => (who.guestId ? eb('guest_id', '=', who.guestId) : eb('player_id', '=', who.playerId ?? 0)))
      .executeTakeFirstOrThrow();
    expect([text, conv.status]).toEqual([text, 'waiting_staff']);
  }
});

test('"not understood" is no missing payment, and topic words alone still get their how-to', () => {
  expect([handoffOf('ไม่เข้าใจวิธีฝากเงิน'), topicOf('ไม่เข้าใจวิธีฝากเงิน')]).toEqual([null, 'HELP_DEPOSIT']);
  expect([handoffOf('ບໍ່ເຂົ້າໃຈວິທີຝາກເງິນ'), topicOf('ບໍ່ເຂົ້າໃຈວິທີຝາກເງິນ')]).toEqual([null, 'HELP_DEPOSIT']);
  expect([handoffOf('update my personal details'), handoffOf('how do I deposit?'), handoffOf('ถอนเงินไม่ได้'), handoffOf('ຖອນເງິນ')]).toEqual([null, null, null, null]);
  expect(botAnswer({ kind: 'postback', text: 'HELP_DEPOSIT', firstOfSession: false, locale: 'en', guest: true }).waitingStaff).toBe(false);
});

test('once staff answered in a session the bot stays quiet there, and speaks again in the next session', async () => {
  const g = await newGuest(t.app);
  await sendText(t.app, g, 'hello', { locale: 'en' });
  const convId = String((await t.db.db.selectFrom('chat_conversations').select('id').where('guest_id', '=', g.guestId).executeTakeFirstOrThrow()).id);
  const staff = await createStaff(t.app, { name: 'Ploy' });
  const headers = { authorization: `Bearer ${staff.token}` };
  expect((await t.app.inject({ method: 'POST', url: `/api/staff/conversations/${convId}/reply`, headers, payload: { message: 'Hi, Ploy here', message_type: 'text' } })).statusCode).toBe(200);
  expect(await answerTo(g, () => sendText(t.app, g, 'how do I deposit?'))).toEqual([]);
  expect(await answerTo(g, () => postback(g, 'HELP_BONUS', 'en'))).toEqual([]);
  expect((await t.app.inject({ method: 'POST', url: `/api/staff/conversations/${convId}/close`, headers })).statusCode).toBe(200);
  // A new session: greeted again.
  expect((await answerTo(g, () => sendText(t.app, g, 'me again', { locale: 'en' }))).map((m) => m.message_type)).toEqual(['quick_replies']);
});

test('the keyword table: one topic per language and no match for look-alike words', () => {
  expect([topicOf('deposit'), topicOf('เติมเงิน'), topicOf('ເຕີມເງິນ')]).toEqual(['HELP_DEPOSIT', 'HELP_DEPOSIT', 'HELP_DEPOSIT']);
  expect([topicOf('withdraw'), topicOf('ถอน'), topicOf('ຖອນ')]).toEqual(['HELP_WITHDRAW', 'HELP_WITHDRAW', 'HELP_WITHDRAW']);
  expect([topicOf('Bonus'), topicOf('โปรโมชั่น'), topicOf('ໂປຣໂມຊັ່ນ')]).toEqual(['HELP_BONUS', 'HELP_BONUS', 'HELP_BONUS']);
  expect([topicOf('talk to staff'), topicOf('แอดมิน'), topicOf('ພະນັກງານ')]).toEqual(['TALK_TO_STAFF', 'TALK_TO_STAFF', 'TALK_TO_STAFF']);
  // 'โปรไฟล์' (profile) starts like 'โปร' but is no promotion.
  expect([topicOf('แก้โปรไฟล์'), topicOf('hello'), topicOf('')]).toEqual([null, null, null]);
  expect(botAnswer({ kind: 'media', text: '', firstOfSession: false, locale: 'en', guest: true })).toEqual({ messages: [], waitingStaff: false });
});
