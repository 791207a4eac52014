import type { FastifyInstance } from 'fastify';

/** The player's launch of a seamless game (H2 builds it). */
export default async function launch(_app: FastifyInstance): Promise<void> {}
