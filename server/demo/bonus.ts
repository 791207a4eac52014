import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import { parseDefinition, type DefinitionInput, type Localized } from '../plugins/bonus/definitions';
import { findDefinition, upsertDefinition } from '../plugins/bonus/repository';
import { DEFAULT_REFUND, writeRefundSettings } from '../plugins/bonus/settings';

/**
 * Demo data for bonuses (docs/bonus.md "Demo data"): a bonus of each type (limit, day, week), two promotion
 * codes and refunds switched on, with banners from public/games/banner-*.svg. Idempotent: a code that exists is
 * left as the operator may have changed it, and the refund document is written only when there is none.
 */
function notice(percent: number, cap: number, multiple: number): Localized {
  return {
    th: `<p>รับโบนัส ${percent}% ของยอดเงินในกระเป๋า สูงสุด ${cap} บาท</p><p>ทำยอดเทิร์นโอเวอร์ ${multiple} เท่าของยอดเงินรวมโบนัสเพื่อรับโบนัสสำเร็จ ระหว่างนี้ถอนเงินไม่ได้ และโบนัสจะไม่ผ่านเงื่อนไขเมื่อยอดเงินรวมลดลงเหลือ %percentFail%% ของยอดเริ่มต้น</p>`,
    la: `<p>ຮັບໂບນັດ ${percent}% ຂອງຍອດເງິນໃນກະເປົາ ສູງສຸດ ${cap} ບາດ</p><p>ເຮັດຍອດເທີນໂອເວີ ${multiple} ເທົ່າຂອງຍອດເງິນລວມໂບນັດເພື່ອສຳເລັດໂບນັດ ລະຫວ່າງນີ້ຖອນເງິນບໍ່ໄດ້ ແລະ ໂບນັດຈະບໍ່ຜ່ານເງື່ອນໄຂເມື່ອຍອດເງິນລວມຫຼຸດລົງເຫຼືອ %percentFail%% ຂອງຍອດເລີ່ມຕົ້ນ</p>`,
    en: `<p>Receive ${percent}% of your wallet balance, up to ${cap} baht.</p><p>Play a turnover of ${multiple} times your balance plus the bonus to complete it. Withdrawals wait until then, and the bonus fails if your total balance falls to %percentFail%% of the starting amount.</p>`,
  };
}

const banner = (image: string, html: Localized) => [{ image, html }];

export const DEMO_BONUSES: DefinitionInput[] = [
  {
    code: 'FIRST10',
    name: { th: 'โบนัสสมาชิกใหม่ 10%', la: 'ໂບນັດສະມາຊິກໃໝ່ 10%', en: 'New member bonus 10%' },
    type: 'limit',
    maxReceived: 1,
    percent: 10,
    cap: 500,
    turnoverMultiple: 3,
    percentFail: 10,
    budget: 100_000,
    notice: notice(10, 500, 3),
    banners: banner('/games/banner-bonus-first.svg', { th: '<p>ครั้งเดียวต่อสมาชิก</p>', la: '<p>ຄັ້ງດຽວຕໍ່ສະມາຊິກ</p>', en: '<p>Once per member</p>' }),
    sort: 1,
  },
  {
    code: 'DAILY5',
    name: { th: 'โบนัสรายวัน 5%', la: 'ໂບນັດປະຈຳວັນ 5%', en: 'Daily bonus 5%' },
    type: 'day',
    maxReceived: 1,
    percent: 5,
    cap: 200,
    turnoverMultiple: 2,
    percentFail: 10,
    budget: 50_000,
    notice: notice(5, 200, 2),
    banners: banner('/games/banner-bonus-daily.svg', { th: '<p>รับได้วันละครั้ง</p>', la: '<p>ຮັບໄດ້ມື້ລະຄັ້ງ</p>', en: '<p>Once a day</p>' }),
    sort: 2,
  },
  {
    code: 'WEEKLY15',
    name: { th: 'โบนัสรายสัปดาห์ 15%', la: 'ໂບນັດປະຈຳອາທິດ 15%', en: 'Weekly bonus 15%' },
    type: 'week',
    maxReceived: 2,
    percent: 15,
    cap: 1000,
    turnoverMultiple: 5,
    percentFail: 5,
    budget: null,
    notice: notice(15, 1000, 5),
    banners: banner('/games/banner-bonus-weekly.svg', { th: '<p>รับได้สัปดาห์ละ 2 ครั้ง</p>', la: '<p>ຮັບໄດ້ອາທິດລະ 2 ຄັ້ງ</p>', en: '<p>Twice a week</p>' }),
    sort: 3,
  },
];

export function demoPromotions(now: Date): DefinitionInput[] {
  return [
    {
      code: 'WELCOME50',
      name: { th: 'ต้อนรับ 50%', la: 'ຕ້ອນຮັບ 50%', en: 'Welcome 50%' },
      description: {
        th: '<p>โค้ดต้อนรับ: รับ 50% ของยอดเงินในกระเป๋า สูงสุด 300 บาท ทำเทิร์นโอเวอร์ 5 เท่า</p>',
        la: '<p>ໂຄດຕ້ອນຮັບ: ຮັບ 50% ຂອງຍອດເງິນໃນກະເປົາ ສູງສຸດ 300 ບາດ ເຮັດເທີນໂອເວີ 5 ເທົ່າ</p>',
        en: '<p>Welcome code: 50% of your wallet balance, up to 300 baht, turnover 5 times.</p>',
      },
      percent: 50,
      cap: 300,
      turnoverMultiple: 5,
      percentFail: 10,
      budget: 50_000,
      banners: banner('/games/banner-promotion.svg', { th: '<p>WELCOME50</p>', la: '<p>WELCOME50</p>', en: '<p>WELCOME50</p>' }),
    },
    {
      code: 'LUCKY',
      name: { th: 'โค้ดนำโชค', la: 'ໂຄດນຳໂຊກ', en: 'Lucky code' },
      description: {
        th: '<p>โค้ดนำโชค: รับ 20% สูงสุด 200 บาท ทำเทิร์นโอเวอร์ 3 เท่า ใช้ได้ถึงสิ้นปีหน้า</p>',
        la: '<p>ໂຄດນຳໂຊກ: ຮັບ 20% ສູງສຸດ 200 ບາດ ເຮັດເທີນໂອເວີ 3 ເທົ່າ ໃຊ້ໄດ້ຮອດທ້າຍປີໜ້າ</p>',
        en: '<p>Lucky code: 20% up to 200 baht, turnover 3 times, valid until the end of next year.</p>',
      },
      percent: 20,
      cap: 200,
      turnoverMultiple: 3,
      percentFail: 10,
      budget: 20_000,
      validFrom: null,
      validTo: `${now.getUTCFullYear() + 2}-01-01T00:00:00.000Z`,
    },
  ];
}

export const DEMO_REFUND_BANNERS = banner('/games/banner-refund.svg', {
  th: '<p>คืนยอดเสีย 5% ทุกวัน หรือ 10% เมื่อโบนัสไม่ผ่านเงื่อนไข</p>',
  la: '<p>ຄືນຍອດເສຍ 5% ທຸກມື້ ຫຼື 10% ເມື່ອໂບນັດບໍ່ຜ່ານເງື່ອນໄຂ</p>',
  en: '<p>5% of your losses back, or 10% after a failed bonus</p>',
});

/** Adds the demo bonuses, promotion codes and refund settings that are missing. */
export async function seedDemoBonuses(db: Kysely<DB>, now = new Date()): Promise<void> {
  const all: [DefinitionInput, 'bonus' | 'promotion'][] = [
    ...DEMO_BONUSES.map((d) => [d, 'bonus'] as [DefinitionInput, 'bonus']),
    ...demoPromotions(now).map((d) => [d, 'promotion'] as [DefinitionInput, 'promotion']),
  ];
  await db.transaction().execute(async (trx) => {
    for (const [input, kind] of all) {
      if (await findDefinition(trx, input.code)) continue;
      const parsed = parseDefinition(input, kind);
      if (!parsed.ok) throw new Error(`demo ${kind} ${input.code}: ${parsed.errors.join('; ')}`);
      await upsertDefinition(trx, parsed.row, now);
    }
    const refund = await trx.selectFrom('settings').select('key').where('key', '=', 'refund').executeTakeFirst();
    if (!refund) await writeRefundSettings(trx, { ...DEFAULT_REFUND, isActive: true, banners: DEMO_REFUND_BANNERS }, now);
  });
}
