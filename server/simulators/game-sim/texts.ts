/**
 * The simulated provider's own page texts in the app's three languages. They live here, not in locales/,
 * because this page stands in for a third party's game and is served outside the SPA.
 */
export type SimLang = 'th' | 'la' | 'en';

export interface SimTexts {
  title: string;
  account: string;
  balance: string;
  bet: string;
  quickBets: string;
  spin: string;
  spinning: string;
  refresh: string;
  reels: string;
  /** `{amount}` is replaced by the formatted win. */
  win: string;
  lose: string;
  insufficient: string;
  invalidBet: string;
  expired: string;
  error: string;
  noscript: string;
  demoNote: string;
}

export const SIM_TEXTS: Record<SimLang, SimTexts> = {
  th: {
    title: 'สปินนำโชค',
    account: 'บัญชี',
    balance: 'ยอดเงินในเกม',
    bet: 'จำนวนเงินเดิมพัน',
    quickBets: 'เลือกเดิมพันด่วน',
    spin: 'หมุน',
    spinning: 'กำลังหมุน…',
    refresh: 'รีเฟรชยอดเงิน',
    reels: 'ผลการหมุน',
    win: 'คุณชนะ {amount}!',
    lose: 'รอบนี้ไม่ชนะ',
    insufficient: 'ยอดเงินในเกมไม่พอสำหรับการเดิมพันนี้',
    invalidBet: 'กรุณาใส่จำนวนเดิมพันมากกว่า 0 และทศนิยมไม่เกิน 2 ตำแหน่ง',
    expired: 'ลิงก์เกมนี้หมดอายุหรือใช้ไม่ได้แล้ว กรุณาเปิดเกมอีกครั้งจากกระเป๋าเงินของคุณ',
    error: 'เกิดข้อผิดพลาด กรุณาลองใหม่อีกครั้ง',
    noscript: 'เกมนี้ต้องเปิดใช้ JavaScript',
    demoNote: 'เกมสาธิตจากระบบจำลองผู้ให้บริการเกม',
  },
  la: {
    title: 'ໝຸນນຳໂຊກ',
    account: 'ບັນຊີ',
    balance: 'ຍອດເງິນໃນເກມ',
    bet: 'ຈຳນວນເງິນເດີມພັນ',
    quickBets: 'ເລືອກເດີມພັນດ່ວນ',
    spin: 'ໝຸນ',
    spinning: 'ກຳລັງໝຸນ…',
    refresh: 'ໂຫຼດຍອດເງິນຄືນໃໝ່',
    reels: 'ຜົນການໝຸນ',
    win: 'ທ່ານຊະນະ {amount}!',
    lose: 'ຮອບນີ້ບໍ່ຊະນະ',
    insufficient: 'ຍອດເງິນໃນເກມບໍ່ພໍສຳລັບການເດີມພັນນີ້',
    invalidBet: 'ກະລຸນາໃສ່ຈຳນວນເດີມພັນຫຼາຍກວ່າ 0 ແລະ ທົດສະນິຍົມບໍ່ເກີນ 2 ຕຳແໜ່ງ',
    expired: 'ລິ້ງເກມນີ້ໝົດອາຍຸ ຫຼື ໃຊ້ບໍ່ໄດ້ແລ້ວ ກະລຸນາເປີດເກມອີກຄັ້ງຈາກກະເປົາເງິນຂອງທ່ານ',
    error: 'ເກີດຂໍ້ຜິດພາດ ກະລຸນາລອງໃໝ່ອີກຄັ້ງ',
    noscript: 'ເກມນີ້ຕ້ອງເປີດໃຊ້ JavaScript',
    demoNote: 'ເກມສາທິດຈາກລະບົບຈຳລອງຜູ້ໃຫ້ບໍລິການເກມ',
  },
  en: {
    title: 'Lucky Spin',
    account: 'Account',
    balance: 'Game balance',
    bet: 'Bet amount',
    quickBets: 'Quick bets',
    spin: 'Spin',
    spinning: 'Spinning…',
    refresh: 'Refresh balance',
    reels: 'Spin result',
    win: 'You won {amount}!',
    lose: 'No win this time.',
    insufficient: 'Your game balance is too low for this bet.',
    invalidBet: 'Enter a bet above 0 with at most 2 decimals.',
    expired: 'This game link has expired or is no longer valid. Open the game again from your wallet.',
    error: 'Something went wrong. Please try again.',
    noscript: 'This game needs JavaScript.',
    demoNote: 'Demo game served by the built-in game-provider simulator.',
  },
};

/** `la` is the app's key for Lao; HTML and Intl use the standard `lo`. */
export const htmlLang = (lang: SimLang): string => (lang === 'la' ? 'lo' : lang);
