import type { ChatMessageType } from '../../db/schema-chat';

/**
 * The support bot (docs/chat.md "Bot"): answers the first customer message of a session with a greeting and four
 * quick replies, the quick replies' postbacks, and texts naming a topic (deposit, withdraw, bonus, staff) in
 * Thai, Lao or English. It knows nothing of the player's account: it points at the screens and the how-to
 * videos. Once staff have answered in a session it stays quiet there (the caller checks that).
 */

export const CHAT_LOCALES = ['th', 'la', 'en'] as const;
export type ChatLocale = (typeof CHAT_LOCALES)[number];
type Texts = Record<ChatLocale, string>;

export const BOT_POSTBACKS = ['HELP_DEPOSIT', 'HELP_WITHDRAW', 'HELP_BONUS', 'TALK_TO_STAFF'] as const;
export type BotPostback = (typeof BOT_POSTBACKS)[number];

export interface Button {
  title: string;
  type: 'web' | 'call' | 'postback' | 'other';
  payload: string;
}
export interface GenericElement {
  image_url: string | null;
  title: string;
  subtitle: string | null;
  buttons: Button[];
}

/** One message the bot sends. */
export interface BotMessage {
  message_type: Extract<ChatMessageType, 'text' | 'buttons' | 'quick_replies' | 'generic'>;
  message: string;
  payload: null | { buttons: Button[] } | { quick_replies: Button[] } | { elements: GenericElement[] };
}

export const BOT_USERNAME = 'bot';
export const BOT_NAME: Texts = { th: 'บอทช่วยเหลือ', la: 'ບອດຊ່ວຍເຫຼືອ', en: 'Support bot' };

const T = {
  greeting: {
    th: 'สวัสดีค่ะ ฉันคือบอทช่วยเหลือ ต้องการให้ช่วยเรื่องอะไรคะ',
    la: 'ສະບາຍດີ ຂ້ອຍແມ່ນບອດຊ່ວຍເຫຼືອ ມີຫຍັງໃຫ້ຊ່ວຍບໍ່',
    en: 'Hello! I am the support bot. What can I help you with?',
  },
  HELP_DEPOSIT: { th: 'วิธีฝากเงิน', la: 'ວິທີຝາກເງິນ', en: 'How to deposit' },
  HELP_WITHDRAW: { th: 'วิธีถอนเงิน', la: 'ວິທີຖອນເງິນ', en: 'How to withdraw' },
  HELP_BONUS: { th: 'โบนัสและโปรโมชั่น', la: 'ໂບນັດ ແລະ ໂປຣໂມຊັ່ນ', en: 'Bonus and promotions' },
  TALK_TO_STAFF: { th: 'คุยกับเจ้าหน้าที่', la: 'ລົມກັບພະນັກງານ', en: 'Talk to staff' },
  depositHelp: {
    th: 'ฝากเงินได้ที่ปุ่มฝากเงินในหน้าหลัก: สแกน QR, โอนผ่านธนาคารแล้วอัปโหลดสลิป หรือลิงก์ซองของขวัญ เงินจะเข้ากระเป๋าภายในประมาณ 1 นาที',
    la: 'ຝາກເງິນໄດ້ທີ່ປຸ່ມຝາກເງິນໃນໜ້າຫຼັກ: ສະແກນ QR, ໂອນຜ່ານທະນາຄານແລ້ວອັບໂຫຼດສະລິບ ຫຼື ລິ້ງຂອງຂວັນ ເງິນຈະເຂົ້າກະເປົາພາຍໃນປະມານ 1 ນາທີ',
    en: 'Deposit with the Deposit button on the home screen: scan a QR code, transfer from your bank and upload the slip, or use a gift link. The money reaches your wallet in about a minute.',
  },
  withdrawHelp: {
    th: 'ถอนเงินได้ที่ปุ่มถอนเงินในหน้าหลัก ใส่จำนวนเงิน แล้วเงินจะโอนเข้าบัญชีธนาคารที่ลงทะเบียนไว้ ยอดขั้นต่ำและสูงสุดแสดงอยู่ในหน้าถอนเงิน',
    la: 'ຖອນເງິນໄດ້ທີ່ປຸ່ມຖອນເງິນໃນໜ້າຫຼັກ ໃສ່ຈຳນວນເງິນ ແລ້ວເງິນຈະໂອນເຂົ້າບັນຊີທະນາຄານທີ່ລົງທະບຽນໄວ້ ຍອດຕ່ຳສຸດ ແລະ ສູງສຸດສະແດງຢູ່ໃນໜ້າຖອນເງິນ',
    en: 'Withdraw with the Withdraw button on the home screen: enter the amount and it is paid to the bank account you registered. The minimum and maximum are shown there.',
  },
  bonusHelp: {
    th: 'โบนัสและโค้ดโปรโมชั่นอยู่ในหน้าโบนัส โบนัสแต่ละรายการมียอดเทิร์นที่ต้องทำก่อนถอน ดูความคืบหน้าได้ในหน้านั้น',
    la: 'ໂບນັດ ແລະ ລະຫັດໂປຣໂມຊັ່ນຢູ່ໃນໜ້າໂບນັດ ແຕ່ລະໂບນັດມີຍອດເທີນທີ່ຕ້ອງເຮັດກ່ອນຖອນ ເບິ່ງຄວາມຄືບໜ້າໄດ້ໃນໜ້ານັ້ນ',
    en: 'Bonuses and promotion codes are on the Bonus page. Each bonus has a turnover to reach before you can withdraw; its progress is shown there.',
  },
  staffHelp: {
    th: 'เจ้าหน้าที่จะตอบกลับที่นี่ พิมพ์คำถามทิ้งไว้ได้เลยค่ะ',
    la: 'ພະນັກງານຈະຕອບກັບຢູ່ບ່ອນນີ້ ພິມຄຳຖາມໄວ້ໄດ້ເລີຍ',
    en: 'A staff member will answer here. Please leave your question.',
  },
  openWallet: { th: 'เปิดกระเป๋าเงิน', la: 'ເປີດກະເປົາເງິນ', en: 'Open the wallet' },
  howtoVideos: { th: 'ดูวิดีโอแนะนำ', la: 'ເບິ່ງວິດີໂອແນະນຳ', en: 'Watch the how-to videos' },
  openBonus: { th: 'เปิดหน้าโบนัส', la: 'ເປີດໜ້າໂບນັດ', en: 'Open the bonus page' },
  depositCardSubtitle: {
    th: 'วิดีโอสั้นทีละขั้นตอน',
    la: 'ວິດີໂອສັ້ນເທື່ອລະຂັ້ນຕອນ',
    en: 'A short video of each step',
  },
  bonusCardSubtitle: {
    th: 'ดูวิธีรับและยกเลิกโบนัส',
    la: 'ເບິ່ງວິທີຮັບ ແລະ ຍົກເລີກໂບນັດ',
    en: 'How to receive and cancel a bonus',
  },
} satisfies Record<string, Texts>;

/**
 * Words that name a topic, matched lower-case anywhere in the text. Kept to whole words a customer writes (not
 * fragments such as 'โปร', which is also the start of 'โปรไฟล์', profile).
 */
const KEYWORDS: Record<BotPostback, string[]> = {
  HELP_DEPOSIT: ['deposit', 'top up', 'topup', 'ฝาก', 'เติมเงิน', 'ຝາກ', 'ເຕີມເງິນ'],
  HELP_WITHDRAW: ['withdraw', 'cash out', 'payout', 'ถอน', 'ຖອນ'],
  HELP_BONUS: ['bonus', 'promotion', 'promo code', 'โบนัส', 'โปรโมชั่น', 'ໂບນັດ', 'ໂປຣໂມຊັ່ນ'],
  TALK_TO_STAFF: ['staff', 'agent', 'human', 'admin', 'operator', 'พนักงาน', 'เจ้าหน้าที่', 'แอดมิน', 'ພະນັກງານ', 'ເຈົ້າໜ້າທີ່', 'ແອັດມິນ'],
};

export const isBotPostback = (code: string): code is BotPostback => (BOT_POSTBACKS as readonly string[]).includes(code);

/** The topic a text names (the first in the order deposit, withdraw, bonus, staff), or null. */
export function topicOf(text: string): BotPostback | null {
  const t = text.toLowerCase();
  for (const code of BOT_POSTBACKS) if (KEYWORDS[code].some((k) => t.includes(k))) return code;
  return null;
}

const web = (title: string, url: string): Button => ({ title, type: 'web', payload: url });

function greeting(l: ChatLocale): BotMessage {
  return {
    message_type: 'quick_replies',
    message: T.greeting[l],
    payload: { quick_replies: BOT_POSTBACKS.map((code) => ({ title: T[code][l], type: 'postback' as const, payload: code })) },
  };
}

/**
 * The how-to page is public, and visiting a public page with a token ends the session (spec §4 "Session"), so only
 * a guest is offered it; a player gets the screens of the user area.
 */
function answer(code: BotPostback, l: ChatLocale, guest: boolean): BotMessage[] {
  const howto = (): Button[] => (guest ? [web(T.howtoVideos[l], '/howto')] : []);
  switch (code) {
    case 'HELP_DEPOSIT':
      return [
        { message_type: 'buttons', message: T.depositHelp[l], payload: { buttons: [web(T.openWallet[l], '/user/home'), ...howto()] } },
        {
          message_type: 'generic',
          message: T.HELP_DEPOSIT[l],
          payload: {
            elements: [
              { image_url: '/media/howto/wallet.jpg', title: T.HELP_DEPOSIT[l], subtitle: T.depositCardSubtitle[l], buttons: guest ? howto() : [web(T.openWallet[l], '/user/home')] },
            ],
          },
        },
      ];
    case 'HELP_WITHDRAW':
      return [{ message_type: 'buttons', message: T.withdrawHelp[l], payload: { buttons: [web(T.openWallet[l], '/user/home')] } }];
    case 'HELP_BONUS':
      return [
        { message_type: 'buttons', message: T.bonusHelp[l], payload: { buttons: [web(T.openBonus[l], '/user/bonus')] } },
        {
          message_type: 'generic',
          message: T.HELP_BONUS[l],
          payload: {
            elements: [
              {
                image_url: '/media/howto/bonus.jpg',
                title: T.HELP_BONUS[l],
                subtitle: T.bonusCardSubtitle[l],
                buttons: [web(T.openBonus[l], '/user/bonus'), ...howto()],
              },
            ],
          },
        },
      ];
    case 'TALK_TO_STAFF':
      return [{ message_type: 'text', message: T.staffHelp[l], payload: null }];
  }
}

export interface BotInput {
  kind: 'text' | 'postback' | 'media';
  /** The text typed, or the postback's code. */
  text: string;
  /** This is the customer's first message of the session. */
  firstOfSession: boolean;
  locale: ChatLocale;
  /** A guest (no player behind the conversation): public pages may be offered. */
  guest: boolean;
}

export interface BotAnswer {
  messages: BotMessage[];
  /** The customer asked for a person: the conversation waits for staff. */
  waitingStaff: boolean;
}

/** What the bot says to one customer message (nothing for most messages after the first). */
export function botAnswer(input: BotInput): BotAnswer {
  const topic = input.kind === 'postback' ? (isBotPostback(input.text) ? input.text : null) : input.kind === 'text' ? topicOf(input.text) : null;
  const messages: BotMessage[] = [];
  // A tapped postback already came from the greeting; a typed first message gets the greeting, then the topic.
  if (input.firstOfSession && input.kind !== 'postback') messages.push(greeting(input.locale));
  if (topic) messages.push(...answer(topic, input.locale, input.guest));
  return { messages, waitingStaff: topic === 'TALK_TO_STAFF' };
}
