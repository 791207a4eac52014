/**
 * The second sign-in step's texts of the console (th, la, en): the 6-digit code of an authenticator app after the
 * password (docs/staff.md "Second factor"). English is the reference; th and la are typed against its keys.
 */
const en = {
  'totp.title': 'Two-step verification',
  'totp.intro': 'Enter the 6-digit code your authenticator app shows for {username}.',
  'totp.code': '6-digit code',
  'totp.submit': 'Verify',
  'totp.submitting': 'Verifying…',
  'totp.required': 'Enter the 6 digits of the code.',
  'totp.expired': 'The sign-in took too long. Enter your password again.',
  'totp.back': 'Back to sign-in',
  'errors.WRONG_TOTP': 'Wrong or already used code. Wait for the next code, then try again.',
  'errors.TOTP_REQUIRED': 'This account needs a second factor before it can sign in. Ask the operator to enrol one (staff totp).',
} as const;

type Part = Record<keyof typeof en, string>;
const th: Part = {
  'totp.title': 'การยืนยันตัวตนสองขั้นตอน',
  'totp.intro': 'กรอกรหัส 6 หลักที่แอปยืนยันตัวตนแสดงสำหรับ {username}',
  'totp.code': 'รหัส 6 หลัก',
  'totp.submit': 'ยืนยัน',
  'totp.submitting': 'กำลังยืนยัน…',
  'totp.required': 'กรุณากรอกรหัสให้ครบ 6 หลัก',
  'totp.expired': 'การเข้าสู่ระบบใช้เวลานานเกินไป กรุณากรอกรหัสผ่านอีกครั้ง',
  'totp.back': 'กลับไปหน้าเข้าสู่ระบบ',
  'errors.WRONG_TOTP': 'รหัสไม่ถูกต้องหรือถูกใช้ไปแล้ว กรุณารอรหัสถัดไปแล้วลองใหม่',
  'errors.TOTP_REQUIRED': 'บัญชีนี้ต้องตั้งค่าการยืนยันตัวตนขั้นที่สองก่อนจึงจะเข้าสู่ระบบได้ กรุณาติดต่อผู้ดูแลระบบ (staff totp)',
};
const la: Part = {
  'totp.title': 'ການຢືນຢັນຕົວຕົນສອງຂັ້ນຕອນ',
  'totp.intro': 'ປ້ອນລະຫັດ 6 ຫຼັກທີ່ແອັບຢືນຢັນຕົວຕົນສະແດງສຳລັບ {username}',
  'totp.code': 'ລະຫັດ 6 ຫຼັກ',
  'totp.submit': 'ຢືນຢັນ',
  'totp.submitting': 'ກຳລັງຢືນຢັນ…',
  'totp.required': 'ກະລຸນາປ້ອນລະຫັດໃຫ້ຄົບ 6 ຫຼັກ',
  'totp.expired': 'ການເຂົ້າສູ່ລະບົບໃຊ້ເວລາດົນເກີນໄປ, ກະລຸນາປ້ອນລະຫັດຜ່ານອີກຄັ້ງ',
  'totp.back': 'ກັບໄປໜ້າເຂົ້າສູ່ລະບົບ',
  'errors.WRONG_TOTP': 'ລະຫັດບໍ່ຖືກຕ້ອງ ຫຼື ຖືກໃຊ້ແລ້ວ, ກະລຸນາລໍຖ້າລະຫັດຕໍ່ໄປແລ້ວລອງໃໝ່',
  'errors.TOTP_REQUIRED': 'ບັນຊີນີ້ຕ້ອງຕັ້ງການຢືນຢັນຂັ້ນທີສອງກ່ອນຈຶ່ງເຂົ້າລະບົບໄດ້, ກະລຸນາຕິດຕໍ່ຜູ້ດູແລລະບົບ (staff totp)',
};

export const totpTexts = { en, th, la };
