import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import routes from './routes';

/** The invite earnings other features write or show (a deposit's earning, the wallet's figures). */
export { inviteFigureColumns, inviteSummaryOf, recordInviteEarning, type InviteSummary } from './earnings';

/**
 * The invite bonus (docs/invite-wheel.md): the routes. Earnings are written by the deposit credit
 * (server/plugins/deposits/credit.ts calls recordInviteEarning in the deposit's transaction) and the wallet
 * view shows the summary (inviteSummary).
 */
async function invite(app: FastifyInstance) {
  await app.register(routes);
}

export default fp(invite, { name: 'invite', dependencies: ['db', 'auth', 'statement'] });
