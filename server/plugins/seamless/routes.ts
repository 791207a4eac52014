import type { FastifyInstance } from 'fastify';

/** The aggregator's Wallet API (H1 builds it). */
export default async function walletApi(_app: FastifyInstance): Promise<void> {}
