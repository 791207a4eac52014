import { ConfigError } from '../../config';
import { PayoutSimulator, type PayoutSimulatorOptions } from './simulator';
import type { PayoutAdapter } from './types';

export type { PayoutAdapter, PayoutRequest, PayoutAck, PayoutCancel, PayoutSettledHandler, PayoutStatus } from './types';
export { PayoutSimulator } from './simulator';

type Env = Record<string, string | undefined>;

/**
 * PAYOUT_SIM_DELAY_MS (default 5000; "manual": only the demo page or settle() settles), PAYOUT_SIM_SEND_AFTER_MS
 * (default 0: sent to the bank at once, so never cancellable; "manual": queued until settled), PAYOUT_SIM_FAILURE_RATE,
 * PAYOUT_SIM_REJECT_RATE.
 */
export function payoutSimulatorOptionsFromEnv(env: Env): Partial<PayoutSimulatorOptions> {
  const out: Partial<PayoutSimulatorOptions> = {};
  for (const [name, key] of [
    ['PAYOUT_SIM_DELAY_MS', 'delayMs'],
    ['PAYOUT_SIM_SEND_AFTER_MS', 'sendAfterMs'],
  ] as const) {
    const d = env[name];
    if (d === undefined || d === '') continue;
    if (d === 'manual') out[key] = null;
    else if (/^\d+$/.test(d)) out[key] = Number(d);
    else throw new ConfigError(`${name} must be a whole number of ms or "manual", got "${d}"`);
  }
  for (const [name, key] of [
    ['PAYOUT_SIM_FAILURE_RATE', 'failureRate'],
    ['PAYOUT_SIM_REJECT_RATE', 'rejectRate'],
  ] as const) {
    const v = env[name];
    if (v === undefined || v === '') continue;
    const n = Number(v);
    if (!(n >= 0 && n <= 1)) throw new ConfigError(`${name} must be between 0 and 1, got "${v}"`);
    out[key] = n;
  }
  return out;
}

/**
 * The payout adapter chosen by configuration: PAYOUT_PROVIDER=simulator (the default in demo mode). A real
 * gateway is another case here with its own settings; outside demo mode one must be chosen deliberately.
 */
export function createPayoutAdapter(demo: boolean, env: Env = process.env): PayoutAdapter {
  const kind = env.PAYOUT_PROVIDER || (demo ? 'simulator' : '');
  if (kind === 'simulator') return new PayoutSimulator(payoutSimulatorOptionsFromEnv(env));
  if (kind === '') throw new ConfigError('PAYOUT_PROVIDER is required when DEMO is off (PAYOUT_PROVIDER=simulator to use the simulator deliberately)');
  throw new ConfigError(`PAYOUT_PROVIDER "${kind}" is not available; known: simulator`);
}
