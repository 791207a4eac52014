import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema';
import type { DepositEnv } from './domain/rules';
import type { PaymentGateway, PaymentGatewaySimulator } from '../../adapters/payments';
import type { SlipVerifier, SlipVerifierSimulator } from '../../adapters/slip-verify';
import type { GiftRedeemer, GiftRedeemerSimulator } from '../../adapters/gift';
import type { SlipReader } from './slip-pool';
import type { ProviderCall } from '../../lib/request-context';

/** What the deposit services need; built once by the plugin (server/plugins/deposits/index.ts). */
export interface DepositsContext {
  db: Kysely<DB>;
  env: DepositEnv;
  gateway: PaymentGateway;
  verifier: SlipVerifier;
  gift: GiftRedeemer;
  /** The simulators behind the adapters in demo mode (the demo bank page and tests drive them). */
  sims: { gateway: PaymentGatewaySimulator | null; verifier: SlipVerifierSimulator | null; gift: GiftRedeemerSimulator | null };
  /** Reads an uploaded slip's mini-QR off the request thread (slip-pool.ts). */
  slips: SlipReader;
  now(): Date;
  /** Server secret the signed slip-image links derive their key from. */
  secret: string;
  /** The process's logger; a route's copy (`scoped`, server/lib/request-context.ts) has the request's. */
  log: FastifyBaseLogger;
  /** The request the adapters' calls are made for (their X-Request-Id): set in a route's copy only. */
  call?: ProviderCall;
  /** The wallet's payout settlement (payout.succeeded / payout.failed); null until the wallet plugin is there. */
  settlePayout: ((withdrawalId: string, succeeded: boolean, reason?: string) => Promise<{ applied: boolean; status: string | null }>) | null;
  /** A `wallet` event to the player's room (server/realtime), e.g. a payment sent to staff; absent without sockets. */
  tell?: (playerId: number, data: unknown) => void;
}
