import { ConfigError } from '../../config';

/** Timings of the transfer protocol and the reconciler (docs/ledger.md), from the environment. */
export interface WalletOptions {
  /** Reconciler period (ms); 0 turns the timer off (start-up pass and runOnce only). RECONCILE_INTERVAL_MS [15000] */
  reconcileIntervalMs: number;
  /** Pending transfers younger than this are left to the request that made them (ms). RECONCILE_AFTER_MS [30000] */
  reconcileAfterMs: number;
  /** How long a worker keeps others off a pending transfer it is working on (ms). RECONCILE_CLAIM_MS [60000] */
  claimMs: number;
  /** Run a reconciliation pass when the app starts. RECONCILE_AT_START [on] */
  reconcileAtStart: boolean;
}

type Env = Record<string, string | undefined>;

function ms(env: Env, name: string, dflt: number): number {
  const v = env[name];
  if (v === undefined || v === '') return dflt;
  if (!/^\d{1,9}$/.test(v)) throw new ConfigError(`${name} must be a whole number of milliseconds, got "${v}"`);
  return Number(v);
}

export function walletOptionsFromEnv(env: Env = process.env): WalletOptions {
  const start = env.RECONCILE_AT_START;
  if (start !== undefined && start !== '' && !/^(on|off|true|false|1|0)$/i.test(start)) throw new ConfigError(`RECONCILE_AT_START must be on/off, got "${start}"`);
  return {
    reconcileIntervalMs: ms(env, 'RECONCILE_INTERVAL_MS', 15_000),
    reconcileAfterMs: ms(env, 'RECONCILE_AFTER_MS', 30_000),
    claimMs: ms(env, 'RECONCILE_CLAIM_MS', 60_000),
    reconcileAtStart: start === undefined || start === '' ? true : /^(on|true|1)$/i.test(start),
  };
}
