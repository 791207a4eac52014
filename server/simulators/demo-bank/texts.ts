import { createRequire } from 'node:module';
import type { TextLang } from '../../settings';

/**
 * The demo bank page's texts in the SPA's three languages (issue 40 item 13): ?lang=, else the SPA's lang cookie,
 * else English. The codes in flash messages (QR_ALREADY_PAID, PAYOUT_FAILED...) stay as the webhook answers them.
 */
export const BANK_TEXTS = {
  en: {
    title: 'Demo bank', subtitle: 'simulated payments for the demo wallet',
    note: "Everything here is play money. Payments and payouts reach the wallet through the signed payment webhook, like a real gateway's.",
    transferMade: 'Transfer made.', downloadSlip: 'Download the slip', uploadIt: 'and upload it in the wallet.',
    giftIssued: 'Gift voucher issued. Paste this link in the wallet:', giftLink: 'Gift link', encrypted: 'Encrypted as the app sends it:',
    qrsTitle: 'QR codes waiting for payment', bank: 'Bank', player: 'Player', amount: 'Amount', expiresIn: 'Expires in', pay: 'Pay',
    payAmount: "Amount to pay (empty: the QR's amount)", noQr: "No QR is waiting. Create one in the wallet's deposit window.",
    payoutsTitle: 'Withdrawals waiting for payout', toAccount: 'To account', settle: 'Settle', paid: 'Paid', failed: 'Failed',
    failConfirm: 'Fail this payout? The money returns to the wallet.', noPayout: 'No payout is waiting.',
    transferTitle: 'Transfer to the operator (makes a slip)', from: "From (a player's registered account)", amountBaht: 'Amount (baht)',
    to: 'To', toAccountOption: "The operator's bank account", toPromptPay: "The operator's PromptPay", toOther: "Someone else's account (slip will be refused)",
    made: 'Made', justNow: 'just now', ago30: '30 minutes ago', ago120: '2 hours ago (too old to upload)', transfer: 'Transfer',
    reference: 'Reference', fromCol: 'From', toCol: 'To', time: 'Time', slip: 'Slip', slipPng: 'Slip PNG',
    giftTitle: 'Gift voucher (mobile wallet)', issueVoucher: 'Issue voucher', language: 'Language',
  },
  th: {
    title: 'ธนาคารทดลอง', subtitle: 'การชำระเงินจำลองสำหรับวอลเล็ททดลอง',
    note: 'ทุกอย่างในหน้านี้เป็นเงินทดลอง การชำระและการจ่ายเงินถึงวอลเล็ทผ่านเว็บฮุกที่ลงลายมือชื่อ เหมือนเกตเวย์จริง',
    transferMade: 'โอนเงินแล้ว', downloadSlip: 'ดาวน์โหลดสลิป', uploadIt: 'แล้วอัปโหลดในวอลเล็ท',
    giftIssued: 'ออกซองของขวัญแล้ว วางลิงก์นี้ในวอลเล็ท:', giftLink: 'ลิงก์ซองของขวัญ', encrypted: 'เข้ารหัสแบบที่แอปส่ง:',
    qrsTitle: 'คิวอาร์โค้ดที่รอชำระ', bank: 'ธนาคาร', player: 'ผู้เล่น', amount: 'จำนวนเงิน', expiresIn: 'หมดอายุใน', pay: 'ชำระ',
    payAmount: 'จำนวนที่จะชำระ (ว่าง: ตามคิวอาร์)', noQr: 'ไม่มีคิวอาร์ที่รอชำระ สร้างได้ที่หน้าฝากเงินของวอลเล็ท',
    payoutsTitle: 'รายการถอนที่รอจ่าย', toAccount: 'เข้าบัญชี', settle: 'ผลการจ่าย', paid: 'จ่ายแล้ว', failed: 'ไม่สำเร็จ',
    failConfirm: 'ให้การจ่ายนี้ไม่สำเร็จ? เงินจะคืนเข้าวอลเล็ท', noPayout: 'ไม่มีรายการที่รอจ่าย',
    transferTitle: 'โอนเงินให้ผู้ให้บริการ (ได้สลิป)', from: 'จาก (บัญชีที่ผู้เล่นลงทะเบียนไว้)', amountBaht: 'จำนวนเงิน (บาท)',
    to: 'ถึง', toAccountOption: 'บัญชีธนาคารของผู้ให้บริการ', toPromptPay: 'พร้อมเพย์ของผู้ให้บริการ', toOther: 'บัญชีของคนอื่น (สลิปจะถูกปฏิเสธ)',
    made: 'เวลาโอน', justNow: 'เมื่อสักครู่', ago30: '30 นาทีที่แล้ว', ago120: '2 ชั่วโมงที่แล้ว (เก่าเกินกว่าจะอัปโหลด)', transfer: 'โอนเงิน',
    reference: 'เลขอ้างอิง', fromCol: 'จาก', toCol: 'ถึง', time: 'เวลา', slip: 'สลิป', slipPng: 'สลิป PNG',
    giftTitle: 'ซองของขวัญ (วอลเล็ทมือถือ)', issueVoucher: 'ออกซองของขวัญ', language: 'ภาษา',
  },
  la: {
    title: 'ທະນາຄານທົດລອງ', subtitle: 'ການຊຳລະເງິນຈຳລອງສຳລັບວໍເລັດທົດລອງ',
    note: 'ທຸກຢ່າງໃນໜ້ານີ້ເປັນເງິນທົດລອງ ການຊຳລະ ແລະ ການຈ່າຍເງິນເຖິງວໍເລັດຜ່ານເວັບຮຸກທີ່ລົງລາຍເຊັນ ຄືກັບເກດເວີຈິງ',
    transferMade: 'ໂອນເງິນແລ້ວ', downloadSlip: 'ດາວໂຫຼດສະລິບ', uploadIt: 'ແລ້ວອັບໂຫຼດໃນວໍເລັດ',
    giftIssued: 'ອອກຊອງຂອງຂວັນແລ້ວ ວາງລິ້ງນີ້ໃນວໍເລັດ:', giftLink: 'ລິ້ງຊອງຂອງຂວັນ', encrypted: 'ເຂົ້າລະຫັດແບບທີ່ແອັບສົ່ງ:',
    qrsTitle: 'ຄິວອາໂຄດທີ່ລໍຖ້າຊຳລະ', bank: 'ທະນາຄານ', player: 'ຜູ້ຫຼິ້ນ', amount: 'ຈຳນວນເງິນ', expiresIn: 'ໝົດອາຍຸໃນ', pay: 'ຊຳລະ',
    payAmount: 'ຈຳນວນທີ່ຈະຊຳລະ (ຫວ່າງ: ຕາມຄິວອາ)', noQr: 'ບໍ່ມີຄິວອາທີ່ລໍຖ້າຊຳລະ ສ້າງໄດ້ທີ່ໜ້າຝາກເງິນຂອງວໍເລັດ',
    payoutsTitle: 'ລາຍການຖອນທີ່ລໍຖ້າຈ່າຍ', toAccount: 'ເຂົ້າບັນຊີ', settle: 'ຜົນການຈ່າຍ', paid: 'ຈ່າຍແລ້ວ', failed: 'ບໍ່ສຳເລັດ',
    failConfirm: 'ໃຫ້ການຈ່າຍນີ້ບໍ່ສຳເລັດບໍ? ເງິນຈະຄືນເຂົ້າວໍເລັດ', noPayout: 'ບໍ່ມີລາຍການທີ່ລໍຖ້າຈ່າຍ',
    transferTitle: 'ໂອນເງິນໃຫ້ຜູ້ໃຫ້ບໍລິການ (ໄດ້ສະລິບ)', from: 'ຈາກ (ບັນຊີທີ່ຜູ້ຫຼິ້ນລົງທະບຽນໄວ້)', amountBaht: 'ຈຳນວນເງິນ (ບາດ)',
    to: 'ເຖິງ', toAccountOption: 'ບັນຊີທະນາຄານຂອງຜູ້ໃຫ້ບໍລິການ', toPromptPay: 'ພ້ອມເພຂອງຜູ້ໃຫ້ບໍລິການ', toOther: 'ບັນຊີຂອງຄົນອື່ນ (ສະລິບຈະຖືກປະຕິເສດ)',
    made: 'ເວລາໂອນ', justNow: 'ຫາກໍ່ນີ້', ago30: '30 ນາທີກ່ອນ', ago120: '2 ຊົ່ວໂມງກ່ອນ (ເກົ່າເກີນກວ່າຈະອັບໂຫຼດ)', transfer: 'ໂອນເງິນ',
    reference: 'ເລກອ້າງອີງ', fromCol: 'ຈາກ', toCol: 'ເຖິງ', time: 'ເວລາ', slip: 'ສະລິບ', slipPng: 'ສະລິບ PNG',
    giftTitle: 'ຊອງຂອງຂວັນ (ວໍເລັດມືຖື)', issueVoucher: 'ອອກຊອງຂອງຂວັນ', language: 'ພາສາ',
  },
} satisfies Record<TextLang, Record<string, string>>;

export type BankTexts = (typeof BANK_TEXTS)['en'];

/** ?lang= (th, la, en), else the SPA's lang cookie, else English (the tool's own language). */
export function bankLang(query: string | undefined, cookieHeader: string | undefined): TextLang {
  const cookie = /(?:^|;\s*)lang=([a-z]+)/.exec(cookieHeader ?? '')?.[1];
  for (const v of [query, cookie]) if (v === 'th' || v === 'la' || v === 'en') return v;
  return 'en';
}

/**
 * The Thai and Lao faces the SPA uses (src/app/fonts.css), served from the @fontsource packages so Thai and Lao
 * text renders the same on a machine without those fonts. Only these names are served.
 */
const resolver = createRequire(__filename);
export const BANK_FONTS: Record<string, string> = {
  'noto-sans-thai-400.woff2': '@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff2',
  'noto-sans-thai-700.woff2': '@fontsource/noto-sans-thai/files/noto-sans-thai-thai-700-normal.woff2',
  'noto-sans-lao-400.woff2': '@fontsource/noto-sans-lao/files/noto-sans-lao-lao-400-normal.woff2',
  'noto-sans-lao-700.woff2': '@fontsource/noto-sans-lao/files/noto-sans-lao-lao-700-normal.woff2',
};

export function bankFontPath(name: string): string | null {
  const spec = Object.prototype.hasOwnProperty.call(BANK_FONTS, name) ? BANK_FONTS[name] : undefined;
  return spec ? resolver.resolve(spec) : null;
}

export const BANK_FONT_FACES = [
  ['Noto Sans Thai', 'thai', 'U+0E01-0E5B,U+200C-200D,U+25CC'],
  ['Noto Sans Lao', 'lao', 'U+0E81-0EDF,U+200C-200D,U+25CC'],
]
  .flatMap(([family, file, range]) =>
    [400, 700].map((w) => `@font-face{font-family:"${family}";font-style:normal;font-weight:${w};font-display:swap;src:url(/demo/bank/fonts/noto-sans-${file}-${w}.woff2) format("woff2");unicode-range:${range}}`),
  )
  .join('\n');
