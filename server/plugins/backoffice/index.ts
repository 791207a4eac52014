import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { payoutsRoutes, playersRoutes, reviewsRoutes } from './routes';
import { seamlessRoutes } from './seamless';

/**
 * The back office (issue 14): what needs a person. Staff routes only (app.authenticateStaff and a role guard on
 * each); every action that changes something is written to the staff audit log in its own transaction, and no
 * staff route moves money except through these audited actions. docs/staff.md "Back office".
 */
async function backoffice(app: FastifyInstance) {
  await reviewsRoutes(app);
  await payoutsRoutes(app);
  await playersRoutes(app);
  await seamlessRoutes(app);
}

export default fp(backoffice, { name: 'backoffice', dependencies: ['db', 'staff-auth', 'wallet', 'statement'] });
