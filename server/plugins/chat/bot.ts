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
  missingDeposit: {
    th: 'ขออภัยค่ะ เจ้าหน้าที่จะตรวจสอบยอดฝากให้ที่นี่ กรุณาแจ้งจำนวนเงิน เวลาที่โอน และส่งรูปสลิปไว้ได้เลยค่ะ',
    la: 'ຂໍອະໄພ ພະນັກງານຈະກວດສອບຍອດຝາກໃຫ້ຢູ່ບ່ອນນີ້ ກະລຸນາແຈ້ງຈຳນວນເງິນ ເວລາທີ່ໂອນ ແລະ ສົ່ງຮູບສະລິບໄວ້ໄດ້ເລີຍ',
    en: 'Sorry about that. A staff member will check your deposit here: please send the amount, the time of the transfer and a picture of the slip.',
  },
  missingWithdrawal: {
    th: 'ขออภัยค่ะ เจ้าหน้าที่จะตรวจสอบการถอนเงินให้ที่นี่ กรุณาแจ้งจำนวนเงินและเวลาที่ถอนไว้ได้เลยค่ะ',
    la: 'ຂໍອະໄພ ພະນັກງານຈະກວດສອບການຖອນເງິນໃຫ້ຢູ່ບ່ອນນີ້ ກະລຸນາແຈ້ງຈຳນວນເງິນ ແລະ ເວລາທີ່ຖອນໄວ້ໄດ້ເລີຍ',
    en: 'Sorry about that. A staff member will check your withdrawal here: please send the amount and the time you withdrew.',
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
  HELP_WITHDRAW: ['withdraw', 'withdrew', 'cash out', 'payout', 'ถอน', 'ຖອນ'],
  HELP_BONUS: ['bonus', 'promotion', 'promo code', 'โบนัส', 'โปรโมชั่น', 'ໂບນັດ', 'ໂປຣໂມຊັ່ນ'],
  TALK_TO_STAFF: ['staff', 'agent', 'human', 'admin', 'operator', 'พนักงาน', 'เจ้าหน้าที่', 'แอดมิน', 'ພະນັກງານ', 'ເຈົ້າໜ້າທີ່', 'ແອັດມິນ'],
};

/**
 * A payment the customer says has not arrived, or a plain wish for a person: these go to staff at once (the bot
 * cannot look at payments), before any topic word, since they contain one ('ฝากเงินไม่เข้า' holds 'ฝาก').
 * Thai and Lao are written without spaces between words, so each is matched as a substring, with and without the
 * optional words customers drop ('ยัง', 'แล้ว'). English 'person' is matched as 'a person' / 'real person' ('personal'
 * is no request for one). "Not arrived" alone (no deposit or withdraw word) counts as a
 * deposit: it is what a customer who just paid writes. 'ไม่เข้าใจ' / 'ບໍ່ເຂົ້າໃຈ' (do not understand) contain
 * 'ไม่เข้า' / 'ບໍ່ເຂົ້າ' and are removed before matching.
 */
const NOT_ARRIVED = [
  'not arrived', "hasn't arrived", 'has not arrived', "didn't arrive", 'did not arrive', 'not received', "haven't received",
  'have not received', "didn't receive", 'did not receive', "didn't get", 'did not get', 'not credited', 'not in my wallet',
  'not showing', 'missing', 'still waiting',
  'ไม่เข้า', 'ไม่ได้รับ', 'ไม่ได้เงิน', 'แล้วยังไม่ได้', 'ไม่ขึ้น', 'หายไป', 'เงินหาย',
  'ບໍ່ເຂົ້າ', 'ບໍ່ໄດ້ຮັບ', 'ບໍ່ໄດ້ເງິນ', 'ແລ້ວຍັງບໍ່ໄດ້', 'ບໍ່ຂຶ້ນ', 'ຫາຍໄປ', 'ເງິນຫາຍ',
];
const NOT_UNDERSTOOD = ['ไม่เข้าใจ', 'ບໍ່ເຂົ້າໃຈ'];
const PERSON = [
  'a person', 'real person', 'real people', 'human', 'someone', 'live chat', 'call center', 'customer service',
  'คุยกับคน', 'ขอคุยกับคน', 'ติดต่อคน', 'คนจริง', 'คอลเซ็นเตอร์', 'ติดต่อเจ้าหน้าที่',
  'ລົມກັບຄົນ', 'ເວົ້າກັບຄົນ', 'ຄົນແທ້', 'ຕິດຕໍ່ພະນັກງານ',
];

/** What the bot hands to staff: a missing deposit or withdrawal, or a request for a person. */
export type Handoff = 'MISSING_DEPOSIT' | 'MISSING_WITHDRAWAL' | 'TALK_TO_STAFF';

/** Whether a typed text hands the conversation to staff, and why; null when it does not. */
export function handoffOf(text: string): Handoff | null {
  let t = text.toLowerCase();
  for (const word of NOT_UNDERSTOOD) t = t.split(word).join(' ');
  if (NOT_ARRIVED.some((k) => t.includes(k))) {
    return KEYWORDS.HELP_WITHDRAW.some((k) => t.includes(k)) ? 'MISSING_WITHDRAWAL' : 'MISSING_DEPOSIT';
  }
  return PERSON.some((k) => t.includes(k)) ? 'TALK_TO_STAFF' : null;
}

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

/** Where a player finds the how-to videos inside the user area (src/features/contact/ContactPage.tsx). */
export const PLAYER_HOWTO = '/user/contact#howto';

/**
 * The how-to page /howto is public, and visiting a public page with a token ends the session (spec §4 "Session"),
 * so only a guest is sent there; a player gets the same videos on the user area's contact page.
 */
function answer(code: BotPostback, l: ChatLocale, guest: boolean): BotMessage[] {
  const howto = (): Button[] => [web(T.howtoVideos[l], guest ? '/howto' : PLAYER_HOWTO)];
  switch (code) {
    case 'HELP_DEPOSIT':
      return [
        { message_type: 'buttons', message: T.depositHelp[l], payload: { buttons: [web(T.openWallet[l], '/user/home'), ...howto()] } },
        {
          message_type: 'generic',
          message: T.HELP_DEPOSIT[l],
          payload: {
            elements: [
              { image_url: '/media/howto/wallet.jpg', title: T.HELP_DEPOSIT[l], subtitle: T.depositCardSubtitle[l], buttons: howto() },
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
  const l = input.locale;
  const handoff = input.kind === 'text' ? handoffOf(input.text) : null;
  if (handoff) {
    // Straight to a person: no greeting and no how-to in front of a customer whose money is missing.
    const text = handoff === 'MISSING_DEPOSIT' ? T.missingDeposit[l] : handoff === 'MISSING_WITHDRAWAL' ? T.missingWithdrawal[l] : T.staffHelp[l];
    return { messages: [{ message_type: 'text', message: text, payload: null }], waitingStaff: true };
  }
  const topic = input.kind === 'postback' ? (isBotPostback(input.text) ? input.text : null) : input.kind === 'text' ? topicOf(input.text) : null;
  const messages: BotMessage[] = [];
  // A tapped postback already came from the greeting; a typed first message gets the greeting, then the topic.
  if (input.firstOfSession && input.kind !== 'postback') messages.push(greeting(l));
  if (topic) messages.push(...answer(topic, l, input.guest));
  return { messages, waitingStaff: topic === 'TALK_TO_STAFF' };
}
