import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../../config';
import { PaymentGatewaySimulator, type PaymentGateway } from '../../adapters/payments';
import { SlipVerifierSimulator, type SlipVerifier } from '../../adapters/slip-verify';
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
function kindOf(env: Env, name: string, demo: boolean): 'simulator' {
  const kind = env[name] || (demo ? 'simulator' : '');
  if (kind === 'simulator') return kind;
  if (kind === '') throw new ConfigError(`${name} is required when DEMO is off (${name}=simulator to use the simulator deliberately)`);
  throw new ConfigError(`${name} "${kind}" is not available; known: simulator`);
}

export interface Given {
  gateway?: PaymentGateway;
  verifier?: SlipVerifier;
  gift?: GiftRedeemer;
}

export function createDepositAdapters(app: FastifyInstance, env: Env, given: Given): Pick<DepositsContext, 'gateway' | 'verifier' | 'gift' | 'sims'> {
  const demo = app.config.demo;
  const gatewaySim = given.gateway || (kindOf(env, 'PAYMENT_GATEWAY', demo), false) ? null : new PaymentGatewaySimulator();
  const verifierSim = given.verifier || (kindOf(env, 'SLIP_VERIFIER', demo), false) ? null : new SlipVerifierSimulator(new DemoBankTransferBook(app.db));
  const giftSim = given.gift || (kindOf(env, 'GIFT_REDEEMER', demo), false) ? null : new GiftRedeemerSimulator({ now: () => app.clock.now() });
  // Timed and counted per call (wallet_provider_call_duration_seconds); otherwise the same objects.
  return {
    gateway: instrumentAdapter(app.metrics, 'payments', given.gateway ?? gatewaySim!, ADAPTER_OPERATIONS.payments),
    verifier: instrumentAdapter(app.metrics, 'slip-verify', given.verifier ?? verifierSim!, ADAPTER_OPERATIONS.slipVerify),
    gift: instrumentAdapter(app.metrics, 'gift', given.gift ?? giftSim!, ADAPTER_OPERATIONS.gift),
    sims: { gateway: gatewaySim, verifier: verifierSim, gift: giftSim },
  };
}
