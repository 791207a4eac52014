import type { FastifyInstance } from 'fastify';
import { toBaht } from '../../ledger';
import * as S from './schemas';
import { inviteSummary, listInvites, receiveInviteBonus } from './earnings';
import { readInviteSettings } from './settings';

/** The invite routes of spec §7 (docs/invite-wheel.md "Routes"). All need a player's token. */
export default async function routes(app: FastifyInstance) {
  const auth = { onRequest: app.authenticate };
  // Play routes (issue 15): refused during a time-out, a self-exclusion or past the session limit.
  const play = { config: { play: true } };

  app.get('/api/invite/bonus', { ...auth, ...play, schema: { response: { 200: S.received, ...S.errors } } }, async (req) => ({
    message: 'INVITE_BONUS_SUCCESS' as const,
    amount: toBaht(await receiveInviteBonus(app.db, req.playerId, app.clock.now())),
  }));

  app.post<{ Body: { page?: number; limit?: number } | undefined }>(
    '/api/invite',
    { ...auth, schema: { body: S.listBody, response: { 200: S.list, ...S.errors } } },
    async (req) => {
      const [{ total, rows }, summary] = await Promise.all([
        listInvites(app.db, req.playerId, req.body?.page ?? 1, req.body?.limit ?? 10),
        inviteSummary(app.db, req.playerId),
      ]);
      return {
        invites: rows.map((r) => ({ from: { name: r.name }, amount: toBaht(r.amount), createdAt: r.createdAt })),
        total,
        success: summary.success,
        fail: summary.fail,
      };
    },
  );

  app.get('/api/invite/banners', { ...auth, schema: { response: { 200: S.bannerList, ...S.errors } } }, async () => {
    const s = await readInviteSettings(app.db);
    return { banners: s.isActive ? s.banners : [] };
  });
}
