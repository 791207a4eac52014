import type { Kysely } from 'kysely';

/**
 * Issue 12: the agreement and the conditions are stored per language ({th, la, en}) and served in the player's
 * language. An installation whose documents are still exactly the bilingual lists seeded before gets the
 * per-language ones; a document the operator edited is left alone (a plain list is still served, for every
 * language, until the operator stores it per language). The values are written out here, not imported from the
 * seed, so this migration never changes once landed.
 */
/** The bilingual lists seeded before issue 12. */
export const BEFORE = {
  conditions: [
    '<p><b>ผู้เล่นต้องมีอายุ %minPlayerAge% ปีขึ้นไป</b> / Players must be %minPlayerAge% or older.</p>',
    '<p>ผู้ให้บริการต้องได้รับอนุญาตตามกฎหมายของประเทศที่ให้บริการ / The operator must hold the licences its jurisdiction requires.</p>',
    '<p>ฝากขั้นต่ำผ่านลิงก์ซองของขวัญ 2 บาท; อัปโหลดสลิปภายใน 1 ชั่วโมงหลังโอน / Gift-link deposits from 2 baht; upload a slip within 1 hour of the transfer.</p>',
    '<p>ถอนได้ครั้งละ 100 - 50,000 บาท เข้าบัญชีที่ลงทะเบียนไว้เท่านั้น / Withdrawals of 100 to 50,000 baht go to the registered bank account only.</p>',
    '<p>ขณะรับโบนัส ต้องทำยอดเทิร์นให้ครบก่อนถอน / While a bonus is active, its turnover must be met before withdrawing.</p>',
  ],
  agreements: [
    '<p>ข้าพเจ้ายืนยันว่ามีอายุถึงเกณฑ์ตามกฎหมายและเล่นด้วยความรับผิดชอบ / I confirm I am of legal age and will play responsibly.</p>',
    '<p>บัญชีธนาคารที่ใช้ต้องเป็นชื่อของข้าพเจ้าเอง / The bank account I use is in my own name.</p>',
    '<p>หนึ่งบัญชีต่อหนึ่งคน การเปิดหลายบัญชีอาจถูกระงับ / One account per person; duplicate accounts may be closed.</p>',
  ],
};

/** The per-language documents seeded since. */
export const AFTER = {
  conditions: {
    th: [
      '<p><b>ผู้เล่นต้องมีอายุ %minPlayerAge% ปีขึ้นไป</b></p>',
      '<p>ผู้ให้บริการต้องได้รับอนุญาตตามกฎหมายของประเทศที่ให้บริการ</p>',
      '<p>ฝากขั้นต่ำผ่านลิงก์ซองของขวัญ %giftMinimum% บาท อัปโหลดสลิปภายใน %uploadWindowMinutes% นาทีหลังโอน</p>',
      '<p>ถอนได้ครั้งละ %withdrawMin% - %withdrawMax% บาท เข้าบัญชีที่ลงทะเบียนไว้เท่านั้น</p>',
      '<p>ขณะรับโบนัส ต้องทำยอดเทิร์นให้ครบก่อนถอน</p>',
    ],
    la: [
      '<p><b>ຜູ້ຫຼິ້ນຕ້ອງມີອາຍຸ %minPlayerAge% ປີຂຶ້ນໄປ</b></p>',
      '<p>ຜູ້ໃຫ້ບໍລິການຕ້ອງໄດ້ຮັບອະນຸຍາດຕາມກົດໝາຍຂອງປະເທດທີ່ໃຫ້ບໍລິການ</p>',
      '<p>ຝາກຂັ້ນຕ່ຳຜ່ານລິ້ງຊອງຂອງຂວັນ %giftMinimum% ບາດ ອັບໂຫຼດສະລິບພາຍໃນ %uploadWindowMinutes% ນາທີຫຼັງຈາກໂອນ</p>',
      '<p>ຖອນໄດ້ຄັ້ງລະ %withdrawMin% - %withdrawMax% ບາດ ເຂົ້າບັນຊີທີ່ລົງທະບຽນໄວ້ເທົ່ານັ້ນ</p>',
      '<p>ໃນຂະນະທີ່ຮັບໂບນັດ ຕ້ອງເຮັດຍອດເທີນໃຫ້ຄົບກ່ອນຖອນ</p>',
    ],
    en: [
      '<p><b>Players must be %minPlayerAge% or older.</b></p>',
      '<p>The operator must hold the licences its jurisdiction requires.</p>',
      '<p>Gift-link deposits from %giftMinimum% baht; upload a slip within %uploadWindowMinutes% minutes of the transfer.</p>',
      '<p>Withdrawals of %withdrawMin% to %withdrawMax% baht go to the registered bank account only.</p>',
      '<p>While a bonus is active, its turnover must be met before withdrawing.</p>',
    ],
  },
  agreements: {
    th: [
      '<p>ข้าพเจ้ายืนยันว่ามีอายุถึงเกณฑ์ตามกฎหมายและเล่นด้วยความรับผิดชอบ</p>',
      '<p>บัญชีธนาคารที่ใช้ต้องเป็นชื่อของข้าพเจ้าเอง</p>',
      '<p>หนึ่งบัญชีต่อหนึ่งคน การเปิดหลายบัญชีอาจถูกระงับ</p>',
    ],
    la: [
      '<p>ຂ້າພະເຈົ້າຢືນຢັນວ່າມີອາຍຸຮອດເກນຕາມກົດໝາຍ ແລະ ຫຼິ້ນດ້ວຍຄວາມຮັບຜິດຊອບ</p>',
      '<p>ບັນຊີທະນາຄານທີ່ໃຊ້ຕ້ອງເປັນຊື່ຂອງຂ້າພະເຈົ້າເອງ</p>',
      '<p>ໜຶ່ງບັນຊີຕໍ່ໜຶ່ງຄົນ ການເປີດຫຼາຍບັນຊີອາດຖືກລະງັບ</p>',
    ],
    en: [
      '<p>I confirm I am of legal age and will play responsibly.</p>',
      '<p>The bank account I use is in my own name.</p>',
      '<p>One account per person; duplicate accounts may be closed.</p>',
    ],
  },
};

export async function up(db: Kysely<any>): Promise<void> {
  for (const key of ['conditions', 'agreements'] as const) {
    const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
    if (!row) continue;
    let stored: unknown;
    try {
      stored = JSON.parse(row.value as string);
    } catch {
      continue;
    }
    if (JSON.stringify(stored) !== JSON.stringify(BEFORE[key])) continue;
    await db
      .updateTable('settings')
      .set({ value: JSON.stringify(AFTER[key]), updated_at: new Date().toISOString() })
      .where('key', '=', key)
      .execute();
  }
}

export async function down(): Promise<void> {
  // The per-language documents are served by every later version; nothing to undo.
}
