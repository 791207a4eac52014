import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Localized } from '../lib/localized';
import { parseWheel, writeWheel } from '../plugins/wheel/config';

/**
 * The demo wheel (docs/invite-wheel.md "Demo data"): 8 slices, switched on, coupons valid 7 days. Per coin it
 * pays 8.40 baht on average (5, 10, 20, 50 and 100 baht at 28, 20, 10, 4 and 1 in 100) plus coins back
 * (1 coin at 15, 2 coins at 5 in 100); 17 in 100 win nothing.
 */
const cash = (baht: number): { name: Localized; htmlDescription: Localized } => ({
  name: { th: `เงินสด ${baht} บาท`, la: `ເງິນສົດ ${baht} ບາດ`, en: `${baht} baht cash` },
  htmlDescription: {
    th: `<p>รับเงินสด <b>${baht} บาท</b> เข้ากระเป๋าเมื่อกดรับคูปอง ภายใน 7 วัน</p>`,
    la: `<p>ຮັບເງິນສົດ <b>${baht} ບາດ</b> ເຂົ້າກະເປົາເມື່ອກົດຮັບຄູປອງ ພາຍໃນ 7 ມື້</p>`,
    en: `<p>Claim the coupon within 7 days to receive <b>${baht} baht</b> in your wallet.</p>`,
  },
});
const coins = (n: number): { name: Localized; htmlDescription: Localized } => ({
  name: { th: `เหรียญหมุน ${n} เหรียญ`, la: `ຫຼຽນໝຸນ ${n} ຫຼຽນ`, en: `${n} spin coin${n > 1 ? 's' : ''}` },
  htmlDescription: {
    th: `<p>รับเหรียญหมุนวงล้อเพิ่ม <b>${n} เหรียญ</b> เมื่อกดรับคูปอง ภายใน 7 วัน</p>`,
    la: `<p>ຮັບຫຼຽນໝຸນວົງລໍ້ເພີ່ມ <b>${n} ຫຼຽນ</b> ເມື່ອກົດຮັບຄູປອງ ພາຍໃນ 7 ມື້</p>`,
    en: `<p>Claim the coupon within 7 days to receive <b>${n}</b> more spin coin${n > 1 ? 's' : ''}.</p>`,
  },
});

export const DEMO_WHEEL = {
  isActive: true,
  name: { th: 'วงล้อนำโชค', la: 'ວົງລໍ້ນຳໂຊກ', en: 'Lucky wheel' },
  couponValidDays: 7,
  slices: [
    { code: 'CASH5', label: '฿5', bgColor: '#f59e0b', textColor: '#1f2937', weight: 28, prize: { type: 'cash', amount: 5, ...cash(5) } },
    { code: 'COIN1', label: '+1 COIN', labels: { th: '+1 เหรียญ', la: '+1 ຫຼຽນ', en: '+1 coin' }, bgColor: '#0ea5e9', textColor: '#ffffff', weight: 15, prize: { type: 'coin', amount: 1, ...coins(1) } },
    { code: 'CASH10', label: '฿10', bgColor: '#10b981', textColor: '#ffffff', weight: 20, prize: { type: 'cash', amount: 10, ...cash(10) } },
    {
      code: 'NONE',
      label: '—',
      bgColor: '#6b7280',
      textColor: '#ffffff',
      weight: 17,
      prize: {
        type: 'none',
        htmlDescription: { th: '<p>เสียใจด้วย รอบนี้ไม่ได้รางวัล</p>', la: '<p>ເສຍໃຈນຳ ຮອບນີ້ບໍ່ໄດ້ລາງວັນ</p>', en: '<p>No prize this time. Better luck on the next spin!</p>' },
      },
    },
    { code: 'CASH20', label: '฿20', bgColor: '#8b5cf6', textColor: '#ffffff', weight: 10, prize: { type: 'cash', amount: 20, ...cash(20) } },
    { code: 'COIN2', label: '+2 COIN', labels: { th: '+2 เหรียญ', la: '+2 ຫຼຽນ', en: '+2 coins' }, bgColor: '#06b6d4', textColor: '#1f2937', weight: 5, prize: { type: 'coin', amount: 2, ...coins(2) } },
    { code: 'CASH50', label: '฿50', bgColor: '#ef4444', textColor: '#ffffff', weight: 4, prize: { type: 'cash', amount: 50, ...cash(50) } },
    { code: 'CASH100', label: '฿100', bgColor: '#facc15', textColor: '#7c2d12', weight: 1, prize: { type: 'cash', amount: 100, ...cash(100) } },
  ],
};

/** Writes the demo wheel when there is no wheel document yet (an operator's wheel is kept). */
export async function seedDemoWheel(db: Kysely<DB>, now = new Date()): Promise<void> {
  const existing = await db.selectFrom('settings').select('key').where('key', '=', 'spinwheel').executeTakeFirst();
  if (existing) return;
  const parsed = parseWheel(DEMO_WHEEL);
  if (!parsed.ok) throw new Error(`demo wheel: ${parsed.errors.join('; ')}`);
  await writeWheel(db, parsed.wheel, now);
}
