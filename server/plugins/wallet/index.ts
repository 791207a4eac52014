import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { GameProvider } from '../../adapters/games/types';
import { createPayoutAdapter, PayoutSimulator, type PayoutAdapter } from '../../adapters/payouts';
import type { TransferDeps } from '../../transfers/protocol';
import { startReconciler, type ReconcileReport, type Reconciler } from '../../jobs/reconcile';
import { walletOptionsFromEnv, type WalletOptions } from './options';
import { gameSecrets, type GameSecrets } from './game-secrets';
import { noBonusGate, resendUnsentPayouts, settlePayout, type BonusGate, type SettleHook, type SettleResult, type WithdrawDeps } from './withdrawals';
import routes from './routes';
import { ADAPTER_OPERATIONS, instrumentAdapter } from '../../lib/metrics';
import { startJobLease, type Lease } from '../../jobs/lease';

/** The player's game accounts, for the back office's player lookup. */
export { listGameAccounts } from './repository';

export interface WalletPluginOptions {
  /** Defaults to app.gameProvider (the game-provider plugin: the simulator in demo mode). */
  gameProvider?: GameProvider;
  /** Defaults to createPayoutAdapter: the payout simulator in demo mode (PAYOUT_SIM_* knobs). */
  payoutAdapter?: PayoutAdapter;
  wallet?: Partial<WalletOptions>;
}

export interface WalletApi {
  provider: GameProvider;
  payouts: PayoutAdapter;
  options: WalletOptions;
  /** Seals and opens game account passwords with GAME_SECRET_KEY (game-secrets.ts). */
  secrets: GameSecrets;
  transferDeps: TransferDeps;
  withdrawDeps: WithdrawDeps;
  /** A payout's result (the payment webhook calls this): see withdrawals.settlePayout. */
  settlePayout(withdrawalId: string, succeeded: boolean, reason?: string, alsoInTrx?: SettleHook): Promise<SettleResult>;
  /** One reconciliation pass now (transfers, then unsent payouts). */
  reconcileNow(): Promise<ReconcileReport>;
  /** The bonus work installs the BONUS_CONDITION check for withdrawals here. */
  setBonusGate(gate: BonusGate): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    wallet: WalletApi;
  }
}

/**
 * The wallet: game accounts, transfers (with the reconciler running at start-up and on a timer, in the process
 * holding its lease), withdrawals
 * through the payout adapter, auto-login and the spin-wheel switch. docs/ledger.md.
 */
async function wallet(app: FastifyInstance, opts: WalletPluginOptions) {
  const options: WalletOptions = { ...walletOptionsFromEnv(), ...opts.wallet };
  // Timed and counted per call (wallet_provider_call_duration_seconds); otherwise the same objects.
  const provider = instrumentAdapter(app.metrics, 'games', opts.gameProvider ?? app.gameProvider, ADAPTER_OPERATIONS.games);
  const payouts = instrumentAdapter(app.metrics, 'payouts', opts.payoutAdapter ?? createPayoutAdapter(app.config.demo), ADAPTER_OPERATIONS.payouts);
  const log = { warn: (obj: object, msg: string) => app.log.warn(obj, msg) };
  const transferDeps: TransferDeps = { db: app.db, provider, claimMs: options.claimMs, log };
  const withdrawDeps: WithdrawDeps = { db: app.db, payouts, bonusGate: noBonusGate, log };
  if (payouts instanceof PayoutSimulator) payouts.setSettledHandler((id, ok, reason) => settlePayout(app.db, id, ok, reason));

  let reconciler: Reconciler | null = null;
  let lease: Lease | null = null;
  const api: WalletApi = {
    provider,
    payouts,
    options,
    secrets: gameSecrets(app.config.gameSecretKey, { error: (obj, msg) => app.log.error(obj, msg) }),
    transferDeps,
    withdrawDeps,
    settlePayout: (id, ok, reason, alsoInTrx) => settlePayout(app.db, id, ok, reason, alsoInTrx),
    reconcileNow: () => (reconciler ? reconciler.runOnce() : Promise.reject(new Error('the app is not ready'))),
    setBonusGate(gate) {
      withdrawDeps.bonusGate = gate;
    },
  };
  app.decorate('wallet', api);

  // The timed passes run in one process at a time: the holder of the `reconciler` lease (docs/operations.md
  // "Background jobs (leases)"); reconcileNow() runs wherever it is called.
  app.addHook('onReady', async () => {
    const held = await startJobLease(app, 'reconciler');
    lease = held;
    reconciler = startReconciler(
      transferDeps,
      {
        olderThanMs: options.reconcileAfterMs,
        intervalMs: options.reconcileIntervalMs,
        runAtStart: options.reconcileAtStart,
        when: () => held.held(),
      },
      () => resendUnsentPayouts(withdrawDeps, options.reconcileAfterMs),
    );
  });
  app.addHook('onClose', async () => {
    await reconciler?.stop();
    // Released while the database is still open, so another process takes the job over at once.
    await lease?.stop();
    payouts.close?.();
  });

  await app.register(routes);
}

export default fp(wallet, { name: 'wallet', dependencies: ['db', 'auth', 'game-provider'] });
