import type { Kysely, Transaction } from 'kysely';
import QRCode from 'qrcode';
import type { DB, GamesTable } from './schema';
import { nowIso } from './index';
import { HOWTO_KEYS, type HowtoKey, type HowtoVideo, type Settings } from '../settings';
import { AFTER as LOCALIZED_TEXTS } from './migrations/202611261610_localized_texts';

/**
 * Reference data every installation needs: banks, sources, the lookup documents, the operator's deposit
 * channels and the game catalogue (docs/server.md "Seeded data").
 *
 * Idempotent and never destructive: a bank, source, setting or game is inserted only when its key is
 * missing, so a second run changes nothing and an operator's edits survive upgrades that add new keys.
 * Deposit channels have no natural key, so they are inserted only into an empty table.
 */
export async function seedBase(db: Kysely<DB>): Promise<void> {
  const lineQR = await QRCode.toDataURL(LINE_LINK, { margin: 1, width: 200 });
  await db.transaction().execute(async (trx) => {
    const now = nowIso();
    await insertMissing(trx, 'banks', 'code', BANKS);
    await insertMissing(trx, 'sources', 'code', SOURCES);
    await insertMissing(trx, 'games', 'code', GAMES);
    const settings = { ...SETTINGS, contact: { ...SETTINGS.contact, lineQR } };
    await insertMissing(
      trx,
      'settings',
      'key',
      Object.entries(settings).map(([key, value]) => ({ key, value: JSON.stringify(value), updated_at: now })),
    );
    const { n } = await trx.selectFrom('deposit_channels').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    if (Number(n) === 0) await trx.insertInto('deposit_channels').values(DEPOSIT_CHANNELS).execute();
  });
}

type KeyedTable = 'banks' | 'sources' | 'games' | 'settings';

async function insertMissing<T extends KeyedTable>(trx: Transaction<DB>, table: T, key: string, rows: readonly object[]): Promise<void> {
  for (const row of rows) {
    // onConflict doNothing is ON CONFLICT DO NOTHING on both SQLite and PostgreSQL.
    await trx
      .insertInto(table)
      .values(row as never)
      .onConflict((oc) => oc.column(key as never).doNothing())
      .execute();
  }
}

// ---------------------------------------------------------------------------------------------- banks

/**
 * Banks players register with (bank_type BANK) and the payment types the deposit lookup offers (PAYMENT). market:
 * the build whose registration offers the bank (th or lao); the operator adds a bank by inserting a row.
 */
export const BANKS: DB['banks'][] = [
  { code: 'SCB', name_th: 'ธนาคารไทยพาณิชย์', name_en: 'Siam Commercial Bank', bank_type: 'BANK', english_name_only: 0, sort: 10, market: 'th' },
  { code: 'KBANK', name_th: 'ธนาคารกสิกรไทย', name_en: 'Kasikornbank', bank_type: 'BANK', english_name_only: 0, sort: 20, market: 'th' },
  // KTB, TMB and BBL need the account name in English (spec §5); the SPA and the accounts rules check it.
  { code: 'KTB', name_th: 'ธนาคารกรุงไทย', name_en: 'Krungthai Bank', bank_type: 'BANK', english_name_only: 1, sort: 30, market: 'th' },
  { code: 'TMB', name_th: 'ธนาคารทหารไทยธนชาต', name_en: 'TMBThanachart Bank', bank_type: 'BANK', english_name_only: 1, sort: 40, market: 'th' },
  { code: 'BBL', name_th: 'ธนาคารกรุงเทพ', name_en: 'Bangkok Bank', bank_type: 'BANK', english_name_only: 1, sort: 50, market: 'th' },
  { code: 'GSB', name_th: 'ธนาคารออมสิน', name_en: 'Government Savings Bank', bank_type: 'BANK', english_name_only: 0, sort: 60, market: 'th' },
  { code: 'BAY', name_th: 'ธนาคารกรุงศรีอยุธยา', name_en: 'Bank of Ayudhya (Krungsri)', bank_type: 'BANK', english_name_only: 0, sort: 70, market: 'th' },
  { code: 'BCEL', name_th: 'ธนาคารการค้าต่างประเทศลาว', name_en: 'Banque pour le Commerce Extérieur Lao', bank_type: 'BANK', english_name_only: 0, sort: 80, market: 'lao' },
  // The Lao build's banks (market lao): the registration lookup offers them there instead of the Thai ones.
  { code: 'LDB', name_th: 'ธนาคารพัฒนาลาว', name_en: 'Lao Development Bank', bank_type: 'BANK', english_name_only: 0, sort: 81, market: 'lao' },
  { code: 'APB', name_th: 'ธนาคารส่งเสริมกสิกรรม', name_en: 'Agricultural Promotion Bank', bank_type: 'BANK', english_name_only: 0, sort: 82, market: 'lao' },
  { code: 'JDB', name_th: 'ธนาคารร่วมพัฒนา', name_en: 'Joint Development Bank', bank_type: 'BANK', english_name_only: 0, sort: 83, market: 'lao' },
  { code: 'WW', name_th: 'ชำระผ่าน QR วอลเล็ต (WW)', name_en: 'Wallet QR payment (WW)', bank_type: 'PAYMENT', english_name_only: 0, sort: 90, market: 'th' },
  { code: 'E2P', name_th: 'ชำระผ่าน QR (E2P)', name_en: 'QR payment (E2P)', bank_type: 'PAYMENT', english_name_only: 0, sort: 100, market: 'th' },
];

// -------------------------------------------------------------------------------------------- sources

/** Where a player heard of the site (registration step 3). */
export const SOURCES: DB['sources'][] = [
  { code: 'facebook', description: 'Facebook', sort: 10 },
  { code: 'google', description: 'Google', sort: 20 },
  { code: 'line', description: 'LINE', sort: 30 },
  { code: 'tiktok', description: 'TikTok', sort: 40 },
  { code: 'friend', description: 'เพื่อนแนะนำ / Friend', sort: 50 },
  { code: 'other', description: 'อื่น ๆ / Other', sort: 60 },
];

// ------------------------------------------------------------------------------------------- settings

const LINE_LINK = 'https://line.me/R/ti/p/@demowallet';

export const SETTINGS: Settings = {
  info: { name: 'Demo Wallet', website: 'https://wallet.example.com' },
  notice: { notice: 'ฝาก-ถอนอัตโนมัติตลอด 24 ชั่วโมง เงินเข้ากระเป๋าภายในประมาณ 1 นาที / Automatic deposits and withdrawals 24 hours a day.' },
  contact: {
    // Per language (issue 40 item 13), served in the player's language like the conditions.
    contactText: {
      th: '<p>ติดต่อเจ้าหน้าที่ได้ตลอด 24 ชั่วโมงทาง LINE หรือแชทด้านล่าง</p>',
      la: '<p>ຕິດຕໍ່ພະນັກງານໄດ້ຕະຫຼອດ 24 ຊົ່ວໂມງທາງ LINE ຫຼື ແຊັດດ້ານລຸ່ມ</p>',
      en: '<p>Our staff answer 24 hours a day on LINE or in the chat below.</p>',
    },
    lineLink: LINE_LINK,
    lineName: '@demowallet',
    lineQR: null, // a data: URL of lineLink's QR, made by seedBase
  },
  // Per language (issue 12), served in the player's language; %name% placeholders are filled from the config and
  // the settings when served (lookups-service.ts), so a changed limit or window is never contradicted here.
  // The texts are the localized-texts migration's own (one source; the migration never changes once landed).
  conditions: LOCALIZED_TEXTS.conditions,
  agreements: LOCALIZED_TEXTS.agreements,
  withdraw: { withdrawMin: 100, withdrawMax: 50000 },
  // Thai banks' nightly cut-over, when transfers and their slips are unreliable.
  slip: { isOpen: true, closeFrom: '23:50', closeTo: '00:10', uploadWindowMinutes: 60 },
  site: { terminated: null },
  enableChatWidget: true,
  deposit: { isManual: false, creditMinutes: 1 },
  // Short clips of this app's own screens (scripts/record-howto.ts), committed in public/media/howto.
  howto: { videos: HOWTO_KEYS.map(howtoVideo) },
  // Names the banks, sources and deposit_channels tables hold in Thai and English only, per language (issue 40 item
  // 13): the methods by what they are (no gateway codes), the Lao names of every bank, the sources in each language.
  names: {
    banks: {
      SCB: { la: 'ທະນາຄານໄທພານິດ' },
      KBANK: { la: 'ທະນາຄານກະສິກອນໄທ' },
      KTB: { la: 'ທະນາຄານກຸງໄທ' },
      TMB: { la: 'ທະນາຄານທະຫານໄທທະນະຊາດ' },
      BBL: { la: 'ທະນາຄານກຸງເທບ' },
      GSB: { la: 'ທະນາຄານອອມສິນ' },
      BAY: { la: 'ທະນາຄານກຸງສີອະຍຸທະຍາ' },
      BCEL: { la: 'ທະນາຄານການຄ້າຕ່າງປະເທດລາວ' },
      LDB: { la: 'ທະນາຄານພັດທະນາລາວ' },
      APB: { la: 'ທະນາຄານສົ່ງເສີມກະສິກຳ' },
      JDB: { la: 'ທະນາຄານຮ່ວມພັດທະນາ' },
      WW: { th: 'ทรูมันนี่ วอลเล็ต (QR)', la: 'ທຣູມັນນີ່ ວໍເລັດ (QR)', en: 'TrueMoney Wallet (QR)' },
      E2P: { th: 'QR พร้อมเพย์ ทุกธนาคาร', la: 'QR ພ້ອມເພ ທຸກທະນາຄານ', en: 'PromptPay QR, any bank' },
    },
    sources: {
      friend: { th: 'เพื่อนแนะนำ', la: 'ໝູ່ແນະນຳ', en: 'A friend' },
      other: { th: 'อื่น ๆ', la: 'ອື່ນໆ', en: 'Other' },
    },
    accountNames: {
      'บจก. เดโม วอลเล็ท': { la: 'ບໍລິສັດ ເດໂມ ວໍເລັດ ຈຳກັດ', en: 'Demo Wallet Co., Ltd.' },
      'Demo Wallet (WW)': { th: 'เดโม วอลเล็ท', la: 'ເດໂມ ວໍເລັດ', en: 'Demo Wallet' },
      'Demo Wallet (E2P)': { th: 'เดโม วอลเล็ท', la: 'ເດໂມ ວໍເລັດ', en: 'Demo Wallet' },
    },
  },
};

/** A demo how-to video and its poster and captions, as scripts/record-howto.ts writes them. */
function howtoVideo(key: HowtoKey): HowtoVideo {
  const base = `/media/howto/${key}`;
  return { key, url: `${base}.webm`, poster: `${base}.jpg`, captions: { th: `${base}.th.vtt`, la: `${base}.la.vtt`, en: `${base}.en.vtt` } };
}

// ----------------------------------------------------------------------------------- deposit channels

/** The operator's receiving accounts shown by the deposit lookup (demo values; the operator replaces them). */
export const DEPOSIT_CHANNELS: Omit<DB['deposit_channels'], 'id'>[] = [
  { kind: 'bank', bank_code: 'KBANK', mode: 'AUTO', account_name: 'บจก. เดโม วอลเล็ท', account_no: '0123456789', currency: null, active: 1, sort: 10 },
  { kind: 'bank', bank_code: 'SCB', mode: 'MANUAL', account_name: 'บจก. เดโม วอลเล็ท', account_no: '4061234567', currency: null, active: 1, sort: 20 },
  { kind: 'bank', bank_code: 'GSB', mode: 'MANUAL', account_name: 'บจก. เดโม วอลเล็ท', account_no: '020123456789', currency: null, active: 1, sort: 30 },
  { kind: 'bank', bank_code: 'BCEL', mode: 'MANUAL', account_name: 'DEMO WALLET SOLE CO LTD', account_no: '0101000123456', currency: 'LAK', active: 1, sort: 40 },
  { kind: 'bank', bank_code: 'WW', mode: 'AUTO', account_name: 'Demo Wallet (WW)', account_no: 'WW-MERCHANT-001', currency: null, active: 1, sort: 50 },
  { kind: 'bank', bank_code: 'E2P', mode: 'AUTO', account_name: 'Demo Wallet (E2P)', account_no: 'E2P-MERCHANT-001', currency: null, active: 1, sort: 60 },
  { kind: 'wallet', bank_code: null, mode: 'gift', account_name: 'Demo Wallet gift', account_no: null, currency: null, active: 1, sort: 70 },
];

// --------------------------------------------------------------------------------------------- games

const game = (
  code: string,
  name: string,
  category: GamesTable['category'],
  sort: number,
  extra: Partial<GamesTable> = {},
): GamesTable => ({
  code,
  name,
  category,
  ft_wallet_slot: 1,
  // PNG, drawn from the SVG beside it (scripts/rasterize-game-logos.ts): an SVG image is painted on the main thread.
  logo: `/games/${code}-logo.png`,
  background: `/games/${code}-bg.svg`,
  has_web: 1,
  android: null,
  ios: null,
  login_with_password: 0,
  active: 1,
  sort,
  wallet_mode: 'transfer',
  aggregator: null,
  aggregator_game_code: null,
  ...extra,
});

/**
 * The game catalogue (spec §7 auto-login list). Category follows what each provider mainly offers: slot
 * games; sport (sportsbooks and live casino, which the home screen shows together); lotto.
 * login_with_password: the provider's auto-login takes the password too (/api/autoLogin/{game}/{user}/{password}).
 * ft_wallet_slot: the factor the home card multiplies the amount by to show the provider's own credit unit.
 */
export const GAMES: GamesTable[] = [
  game('pg', 'PG Soft', 'slot', 10),
  game('pgslot', 'PG Slot', 'slot', 20),
  game('joker2', 'Joker Gaming', 'slot', 30, { ft_wallet_slot: 10 }),
  game('slotracha', 'Slot Racha', 'slot', 40),
  game('areaslot', 'Area Slot', 'slot', 50),
  game('circus', 'Circus Slot', 'slot', 60, { ft_wallet_slot: 0.5 }),
  game('usun', 'USUN Sport', 'sport', 70, { login_with_password: 1 }),
  game('askmebet', 'AskMeBet', 'sport', 80, { login_with_password: 1 }),
  game('imi', 'IMI Sport & Casino', 'sport', 90),
  game('betflix', 'Betflix', 'sport', 100, { login_with_password: 1 }),
  game('huayhd', 'Huay HD', 'lotto', 110, { login_with_password: 1 }),
  // Seamless (issue 42): played from the wallet through the aggregator (the Hub88 simulator in demo mode).
  game('h88dragon', 'Dragon Rising', 'slot', 120, { wallet_mode: 'seamless', aggregator: 'hub88', aggregator_game_code: 'sim_dragon_rising' }),
];
