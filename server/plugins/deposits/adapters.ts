import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../../config';
import { OpnGateway, PaymentGatewaySimulator, type PaymentGateway } from '../../adapters/payments';
import { EasySlipVerifier, SlipOkVerifier, SlipVerifierSimulator, type SlipVerifier } from '../../adapters/slip-verify';
import { circuitGauge, circuitsOf } from '../../adapters/http';
import { GiftRedeemerSimulator, type GiftRedeemer } from '../../adapters/gift';
import type { DepositsContext } from './context';
import { DemoBankTransferBook } from './demo-transfer-book';
import { ADAPTER_OPERATIONS, instrumentAdapter } from '../../lib/metrics';

type Env = Record<string, string | undefined>;

/**
 * Chooses each outside service of the deposit flows, like the game and payout providers do: the simulator
 * in demo mode; outside demo mode nothing is assumed (PAYMENT_GATEWAY, SLIP_VERIFIER, GIFT_REDEEMER must be
 * set; `simulator` is a deliberate choice). A real adapter implements the interface in server/adapters/<x>
 * and is added as another case here, or passed to the plugin directly.
 */
function kindOf<K extends string = 'simulator'>(env: Env, name: string, demo: boolean, known: readonly K[] = ['simulator' as K]): K {
  const kind = env[name] || (demo ? 'simulator' : '');
  if ((known as readonly string[]).includes(kind)) return kind as K;
  if (kind === '') throw new ConfigError(`${name} is required when DEMO is off (${name}=simulator to use the simulator deliberately)`);
  throw new ConfigError(`${name} "${kind}" is not available; known: ${known.join(', ')}`);
}

/** SLIP_VERIFIER's choices: the simulator (demo bank), or a real service (docs/providers/easyslip.md, slipok.md). */
export const SLIP_VERIFIERS = ['simulator', 'easyslip', 'slipok'] as const;

function required(env: Env, name: string, why: string): string {
  const v = env[name]?.trim();
  if (!v) throw new ConfigError(`${name} is required with ${why}`);
  return v;
}

function positiveInt(env: Env, name: string): number | undefined {
  const v = env[name];
  if (v === undefined || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 100 || n > 60_000) throw new ConfigError(`${name} must be a whole number of milliseconds between 100 and 60000`);
  return n;
}

/**
 * A real slip verifier from the environment: its key (never logged), its base URL (the fake or a sandbox in tests),
 * the timeout per attempt, and its circuit breaker, registered for the operator's readiness detail and on the
 * wallet_provider_circuit_open gauge.
 */
function realSlipVerifier(app: FastifyInstance, env: Env, kind: 'easyslip' | 'slipok'): SlipVerifier {
  const common = {
    timeoutMs: positiveInt(env, 'SLIP_VERIFIER_TIMEOUT_MS'),
    breaker: { onChange: circuitGauge(app.metrics?.providerCircuitOpen, kind) },
    log: app.log.child({ adapter: 'slip-verify' }),
  };
  const verifier =
    kind === 'easyslip'
      ? new EasySlipVerifier({ ...common, apiKey: required(env, 'EASYSLIP_API_KEY', 'SLIP_VERIFIER=easyslip'), baseUrl: env.EASYSLIP_BASE_URL || undefined })
      : new SlipOkVerifier({
          ...common,
          apiKey: required(env, 'SLIPOK_API_KEY', 'SLIP_VERIFIER=slipok'),
          branchId: required(env, 'SLIPOK_BRANCH_ID', 'SLIP_VERIFIER=slipok'),
          baseUrl: env.SLIPOK_BASE_URL || undefined,
        });
  circuitsOf(app).add(verifier.http.breaker);
  return verifier;
}

/** PAYMENT_GATEWAY's choices: the simulator (demo bank), or Opn Payments' PromptPay (docs/providers/opn.md). */
export const PAYMENT_GATEWAYS = ['simulator', 'opn'] as const;

/** Opn from the environment: its secret key and webhook secret (never logged), base URL, timeout and breaker. */
function realGateway(app: FastifyInstance, env: Env): PaymentGateway {
  const gateway = new OpnGateway({
    secretKey: required(env, 'OPN_SECRET_KEY', 'PAYMENT_GATEWAY=opn'),
    webhookSecret: required(env, 'OPN_WEBHOOK_SECRET', 'PAYMENT_GATEWAY=opn'),
    baseUrl: env.OPN_BASE_URL || undefined,
    timeoutMs: positiveInt(env, 'PAYMENT_GATEWAY_TIMEOUT_MS'),
    breaker: { onChange: circuitGauge(app.metrics?.providerCircuitOpen, 'opn') },
    log: app.log.child({ adapter: 'payments' }),
  });
  circuitsOf(app).add(gateway.http.breaker);
  return gateway;
}

/** GATEWAY_POLL_MS: between passes of the poll for gateway payments whose webhook did not arrive (gateway-poll.ts). */
export const GATEWAY_POLL_DEFAULT_MS = 60_000;

function pollMs(env: Env): number {
  const v = env.GATEWAY_POLL_MS;
  if (v === undefined || v === '') return GATEWAY_POLL_DEFAULT_MS;
  const n = Number(v);
  if (!Number.isInteger(n) || (n !== 0 && (n < 5_000 || n > 3_600_000))) throw new ConfigError('GATEWAY_POLL_MS must be 0 (no poll) or a whole number of milliseconds between 5000 and 3600000');
  return n;
}

export interface Given {
  gateway?: PaymentGateway;
  verifier?: SlipVerifier;
  gift?: GiftRedeemer;
}

export interface DepositAdapters extends Pick<DepositsContext, 'gateway' | 'verifier' | 'gift' | 'sims'> {
  /** The poll of a real gateway's payments (PAYMENT_GATEWAY=opn): its name (the event ids' prefix) and period; else null. */
  gatewayPoll: { gateway: string; everyMs: number } | null;
}

export function createDepositAdapters(app: FastifyInstance, env: Env, given: Given): DepositAdapters {
  const demo = app.config.demo;
  const gatewayKind = given.gateway ? null : kindOf(env, 'PAYMENT_GATEWAY', demo, PAYMENT_GATEWAYS);
  const gatewaySim = gatewayKind === 'simulator' ? new PaymentGatewaySimulator() : null;
  const gatewayReal = gatewayKind === 'opn' ? realGateway(app, env) : null;
  const verifierKind = given.verifier ? null : kindOf(env, 'SLIP_VERIFIER', demo, SLIP_VERIFIERS);
  const verifierSim = verifierKind === 'simulator' ? new SlipVerifierSimulator(new DemoBankTransferBook(app.db)) : null;
  const verifierReal = verifierKind === 'easyslip' || verifierKind === 'slipok' ? realSlipVerifier(app, env, verifierKind) : null;
  const giftSim = given.gift || (kindOf(env, 'GIFT_REDEEMER', demo), false) ? null : new GiftRedeemerSimulator({ now: () => app.clock.now() });
  // Timed and counted per call (wallet_provider_call_duration_seconds); otherwise the same objects.
  return {
    gateway: instrumentAdapter(app.metrics, 'payments', given.gateway ?? gatewaySim ?? gatewayReal!, ADAPTER_OPERATIONS.payments),
    verifier: instrumentAdapter(app.metrics, 'slip-verify', given.verifier ?? verifierSim ?? verifierReal!, ADAPTER_OPERATIONS.slipVerify),
    gift: instrumentAdapter(app.metrics, 'gift', given.gift ?? giftSim!, ADAPTER_OPERATIONS.gift),
    sims: { gateway: gatewaySim, verifier: verifierSim, gift: giftSim },
    gatewayPoll: gatewayReal ? { gateway: gatewayKind as string, everyMs: pollMs(env) } : null,
  };
}
