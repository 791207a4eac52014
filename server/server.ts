import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app';
import type { Config } from './config';

export interface RunningServer {
  app: FastifyInstance;
  /** http://localhost:{port} (the real port, also when PORT=0 asked for any free one). */
  url: string;
  /** Stops accepting connections, lets requests in flight finish, closes the database. */
  close(): Promise<void>;
}

/** How long a graceful close may take before the process exits anyway. */
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * Listens on config.host:config.port. On SIGINT or SIGTERM it closes gracefully (in-flight requests
 * finish, onClose hooks release the database and Redis) and exits 0; a second signal exits at once.
 */
export async function startServer(config: Config, opts: AppOptions & { handleSignals?: boolean } = {}): Promise<RunningServer> {
  const app = await buildApp(config, opts);

  if (opts.handleSignals ?? true) {
    let closing = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (closing) {
        app.log.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      closing = true;
      app.log.info({ signal }, 'closing');
      const timer = setTimeout(() => {
        app.log.error('graceful close timed out');
        process.exit(1);
      }, CLOSE_TIMEOUT_MS);
      timer.unref();
      app.close().then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'error while closing');
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    app.addHook('onClose', async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
  }

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return { app, url: `http://localhost:${port}`, close: () => app.close() };
}
