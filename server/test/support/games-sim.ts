import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';

/**
 * Catalogue rows the simulator tests need, whether or not the seed has added them yet
 * (pg plays without a password, joker2 needs one, huayhd carries the event object).
 */
export async function ensureTestGames(db: Kysely<DB>): Promise<void> {
  const games = [
    { code: 'pg', name: 'PG Slot', category: 'slot' as const, login_with_password: 0 },
    { code: 'joker2', name: 'Joker', category: 'slot' as const, login_with_password: 1 },
    { code: 'huayhd', name: 'Huay HD', category: 'lotto' as const, login_with_password: 0 },
  ];
  for (const g of games) {
    await db
      .insertInto('games')
      .values({ ...g, ft_wallet_slot: 1, logo: `/img/${g.code}.png`, background: `/img/${g.code}-bg.png`, has_web: 1, android: null, ios: null, active: 1, sort: 0, wallet_mode: 'transfer', aggregator: null, aggregator_game_code: null })
      .onConflict((oc) => oc.column('code').doNothing())
      .execute();
  }
}

export const TEST_SECRET = 'test-secret-test-secret-test-secret-123';
