import type { FastifyInstance } from 'fastify';

/** Back office: reviews (docs/staff.md "Back office"). Routes under /api/staff/reviews. */
export async function reviewsRoutes(_app: FastifyInstance): Promise<void> {}
