import type { FastifyInstance } from 'fastify';

/** The limits routes (docs/responsible-play.md "Wire"). */
export default async function routes(_app: FastifyInstance) {}
