import type { FastifyInstance } from 'fastify';

/** Back office: players (docs/staff.md "Back office"). Routes under /api/staff/players. */
export async function playersRoutes(_app: FastifyInstance): Promise<void> {}
