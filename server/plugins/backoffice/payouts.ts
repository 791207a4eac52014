import type { FastifyInstance } from 'fastify';

/** Back office: payouts (docs/staff.md "Back office"). Routes under /api/staff/payouts. */
export async function payoutsRoutes(_app: FastifyInstance): Promise<void> {}
