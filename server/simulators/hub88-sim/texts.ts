/**
 * The aggregator simulator's game page texts in the app's three languages. They live here, not in locales/, because
 * the page stands in for a third party's game (Hub88's) and is served outside the SPA.
 */
export type Hub88SimLang = 'th' | 'la' | 'en';

export interface Hub88SimTexts {
  /** The page's title after the game's name. */
  title: string;
  balance: string;
  balanceUnknown: string;
  stake: string;
  spin: string;
  spinning: string;
  reels: string;
  /** `{amount}` is replaced by the formatted win. */
  win: string;
  lose: string;
  insufficient: string;
  disabled: string;
  limit: string;
  expired: string;
  rolledBack: string;
  unsettled: string;
  error: string;
  lobby: string;
  noscript: string;
  demoNote: string;
  /** Names of the reels' symbols, for screen readers and the result line. */
  symbols: Record<'DRAGON' | 'PEARL' | 'COIN' | 'LANTERN' | 'JADE', string>;
}

export const HUB88_SIM_TEXTS: Record<Hub88SimLang, Hub88SimTexts> = {
  th: {
    title: 'เล่นจากกระเป๋าเงิน',
    balance: 'ยอดเงินในกระเป๋า',
    balanceUnknown: 'ยังอ่านยอดเงินไม่ได้',
    stake: 'เลือกเงินเดิมพัน',
    spin: 'หมุน',
    spinning: 'กำลังหมุน…',
    reels: 'ผลการหมุน',
    win: 'คุณชนะ {amount}!',
    lose: 'รอบนี้ไม่ชนะ',
    insufficient: 'ยอดเงินในกระเป๋าไม่พอสำหรับเดิมพันนี้',
    disabled: 'บัญชีของคุณหยุดการเล่นไว้ (พักการเล่น ขีดจำกัดเวลา หรือการระงับตนเอง)',
    limit: 'ถึงขีดจำกัดการเสียที่คุณตั้งไว้แล้ว',
    expired: 'รอบการเล่นนี้หมดอายุแล้ว กรุณาเปิดเกมอีกครั้งจากกระเป๋าเงินของคุณ',
    rolledBack: 'เดิมพันนี้ไม่สำเร็จ เงินถูกคืนเข้ากระเป๋าของคุณแล้ว',
    unsettled: 'กำลังยืนยันผลรอบนี้ ยอดเงินจะอัปเดตในไม่ช้า',
    error: 'เกิดข้อผิดพลาด กรุณาลองใหม่อีกครั้ง',
    lobby: 'กลับไปที่กระเป๋าเงิน',
    noscript: 'เกมนี้ต้องเปิดใช้ JavaScript',
    demoNote: 'เกมสาธิตจากระบบจำลองผู้รวมเกม (Hub88) เดิมพันและเงินรางวัลตัดและเข้ากระเป๋าเงินของคุณโดยตรง',
    symbols: { DRAGON: 'มังกร', PEARL: 'ไข่มุก', COIN: 'เหรียญทอง', LANTERN: 'โคมไฟ', JADE: 'หยก' },
  },
  la: {
    title: 'ຫຼິ້ນຈາກກະເປົາເງິນ',
    balance: 'ຍອດເງິນໃນກະເປົາ',
    balanceUnknown: 'ຍັງອ່ານຍອດເງິນບໍ່ໄດ້',
    stake: 'ເລືອກເງິນເດີມພັນ',
    spin: 'ໝຸນ',
    spinning: 'ກຳລັງໝຸນ…',
    reels: 'ຜົນການໝຸນ',
    win: 'ທ່ານຊະນະ {amount}!',
    lose: 'ຮອບນີ້ບໍ່ຊະນະ',
    insufficient: 'ຍອດເງິນໃນກະເປົາບໍ່ພໍສຳລັບການເດີມພັນນີ້',
    disabled: 'ບັນຊີຂອງທ່ານຢຸດການຫຼິ້ນໄວ້ (ພັກການຫຼິ້ນ, ຂີດຈຳກັດເວລາ ຫຼື ການລະງັບຕົນເອງ)',
    limit: 'ຮອດຂີດຈຳກັດການເສຍທີ່ທ່ານຕັ້ງໄວ້ແລ້ວ',
    expired: 'ຮອບການຫຼິ້ນນີ້ໝົດອາຍຸແລ້ວ ກະລຸນາເປີດເກມອີກຄັ້ງຈາກກະເປົາເງິນຂອງທ່ານ',
    rolledBack: 'ການເດີມພັນນີ້ບໍ່ສຳເລັດ ເງິນຖືກສົ່ງຄືນເຂົ້າກະເປົາຂອງທ່ານແລ້ວ',
    unsettled: 'ກຳລັງຢືນຢັນຜົນຮອບນີ້ ຍອດເງິນຈະອັບເດດໃນບໍ່ຊ້າ',
    error: 'ເກີດຂໍ້ຜິດພາດ ກະລຸນາລອງໃໝ່ອີກຄັ້ງ',
    lobby: 'ກັບໄປທີ່ກະເປົາເງິນ',
    noscript: 'ເກມນີ້ຕ້ອງເປີດໃຊ້ JavaScript',
    demoNote: 'ເກມສາທິດຈາກລະບົບຈຳລອງຜູ້ລວມເກມ (Hub88) ການເດີມພັນ ແລະ ເງິນລາງວັນຕັດ ແລະ ເຂົ້າກະເປົາເງິນຂອງທ່ານໂດຍກົງ',
    symbols: { DRAGON: 'ມັງກອນ', PEARL: 'ໄຂ່ມຸກ', COIN: 'ຫຼຽນຄຳ', LANTERN: 'ໂຄມໄຟ', JADE: 'ຢົກ' },
  },
  en: {
    title: 'Plays from your wallet',
    balance: 'Wallet balance',
    balanceUnknown: 'Balance not available yet',
    stake: 'Choose your stake',
    spin: 'Spin',
    spinning: 'Spinning…',
    reels: 'Spin result',
    win: 'You won {amount}!',
    lose: 'No win this time.',
    insufficient: 'Your wallet balance is too low for this stake.',
    disabled: 'Play is paused on your account (a break, a time limit or a self-exclusion).',
    limit: 'You have reached a loss limit you set.',
    expired: 'This game session has ended. Open the game again from your wallet.',
    rolledBack: 'This bet did not go through; the stake is back in your wallet.',
    unsettled: 'This round is being confirmed; your balance will update shortly.',
    error: 'Something went wrong. Please try again.',
    lobby: 'Back to the wallet',
    noscript: 'This game needs JavaScript.',
    demoNote: 'Demo game served by the built-in Hub88 aggregator simulator: stakes and wins move your wallet balance directly.',
    symbols: { DRAGON: 'Dragon', PEARL: 'Pearl', COIN: 'Gold coin', LANTERN: 'Lantern', JADE: 'Jade' },
  },
};

/** `la` is the app's key for Lao; HTML and Intl use the standard `lo`. */
export const htmlLang = (lang: Hub88SimLang): string => (lang === 'la' ? 'lo' : lang);
