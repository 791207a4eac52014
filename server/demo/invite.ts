import type { Kysely } from 'kysely';
import type { DB } from '../db/schema';
import type { Banner } from '../lib/localized';
import { DEFAULT_INVITE, writeInviteSettings } from '../plugins/invite/settings';

/** Demo data (docs/invite-wheel.md "Demo data"): the invite bonus switched on at 5%, with a banner. */
export const DEMO_INVITE_BANNERS: Banner[] = [
  {
    image: '/games/banner-invite.svg',
    html: {
      th: '<p>ชวนเพื่อนสมัคร รับ 5% ของยอดฝากแรกของเพื่อน</p>',
      la: '<p>ຊວນໝູ່ສະໝັກ ຮັບ 5% ຂອງຍອດຝາກທຳອິດຂອງໝູ່</p>',
      en: "<p>Invite friends and receive 5% of each friend's first deposit</p>",
    },
  },
];

/** Writes the demo invite settings when there is no invite document yet (an operator's choice is kept). */
export async function seedDemoInvite(db: Kysely<DB>, now = new Date()): Promise<void> {
  const existing = await db.selectFrom('settings').select('key').where('key', '=', 'invite').executeTakeFirst();
  if (!existing) await writeInviteSettings(db, { ...DEFAULT_INVITE, isActive: true, banners: DEMO_INVITE_BANNERS }, now);
}
