import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp, type AppOptions } from './app';
import type { Config } from './config';
import { CLOSE_MESSAGE } from './cluster';

export interface RunningServer {
  app: FastifyInstance;
  /** http://localhost:{port} (the real port, also when PORT=0 asked for any free one). */
  url: string;
  /** Stops accepting connections, lets requests in flight finish, closes the database. */
  close(): Promise<void>;
}

/** How long a graceful close may take before the process exits anyway. */
const CLOSE_TIMEOUT_MS = 10_000;
/** At most this long, keep-alive connections that are still carrying requests get their next answer with `Connection: close`. */
const DRAIN_MAX_MS = 2_000;
/** A connection without a request for this long is idle enough to be closed by the server (server.close()). */
const DRAIN_QUIET_MS = 250;

/**
 * Listens on config.host:config.port. On SIGINT or SIGTERM (or the cluster primary's close message) it closes
 * gracefully and exits 0; with `hangupExitCode`, SIGHUP closes the same way and exits with that code (a single
 * process's reload: its process manager starts it again); a second signal exits at once. The graceful close (docs/operations.md "Several processes"):
 * 1. stops accepting new connections (in a cluster, the primary hands them to the other workers);
 * 2. every answer from then on says `Connection: close`, so clients on kept-alive connections get their request
 *    answered normally (never 503) and reconnect elsewhere; this lasts until those connections are gone, at most
 *    DRAIN_MAX_MS, or until no request came for DRAIN_QUIET_MS;
 * 3. app.close(): sockets close (realtime preClose), idle connections close, requests in flight (provider calls
 *    included) finish, onClose hooks release leases, the database and Redis.
 */
export async function startServer(config: Config, opts: AppOptions & { handleSignals?: boolean; hangupExitCode?: number } = {}): Promise<RunningServer> {
  const app = await buildApp(config, opts);

  // Sockets that carried an HTTP request (not upgraded ones: those are the realtime plugin's), and requests in flight.
  const httpSockets = new Set<Socket>();
  let inFlight = 0;
  let lastRequestAt = 0;
  let draining = false;
  app.server.on('request', (req: IncomingMessage, res) => {
    inFlight++;
    lastRequestAt = Date.now();
    const socket = req.socket;
    if (!httpSockets.has(socket)) {
      httpSockets.add(socket);
      socket.once('close', () => httpSockets.delete(socket));
    }
    res.once('close', () => inFlight--);
  });
  app.addHook('onSend', (_req, reply, payload, done) => {
    if (draining) reply.header('connection', 'close');
    done(null, payload);
  });

  let closing: Promise<void> | null = null;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      draining = true;
      if (app.server.listening) {
        // net's close only: stop accepting, leave kept-alive connections open for their next request (http's close
        // would drop the idle ones at once, racing a request already on its way).
        net.Server.prototype.close.call(app.server);
        const started = Date.now();
        for (;;) {
          const now = Date.now();
          if (httpSockets.size === 0 || now - started >= DRAIN_MAX_MS) break;
          if (inFlight === 0 && now - lastRequestAt >= DRAIN_QUIET_MS) break;
          await new Promise((r) => setTimeout(r, 20));
        }
      }
      await app.close();
    })();
    return closing;
  };

  const exitAfterClose = (reason: string, code = 0) => {
    app.log.info({ reason }, 'closing');
    const timer = setTimeout(() => {
      app.log.error('graceful close timed out');
      process.exit(1);
    }, CLOSE_TIMEOUT_MS);
    timer.unref();
    close().then(
      () => process.exit(code),
      (err: unknown) => {
        app.log.error({ err }, 'error while closing');
        process.exit(1);
      },
    );
  };

  if (opts.handleSignals ?? true) {
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        app.log.warn({ signal }, 'second signal: exiting now');
        process.exit(1);
      }
      signalled = true;
      exitAfterClose(signal, signal === 'SIGHUP' ? opts.hangupExitCode : 0);
    };
    // The cluster primary's close (rolling restart, shutdown); repeated messages do nothing more.
    let asked = false;
    const onMessage = (message: unknown) => {
      if (message !== CLOSE_MESSAGE || asked) return;
      asked = true;
      if (!signalled) exitAfterClose('primary');
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    // A single process asked to reload (systemctl reload, deploy/wallet.service): the same graceful close, then an
    // exit code the process manager restarts on. Node's default for SIGHUP would end it at once, requests and all.
    if (opts.hangupExitCode !== undefined) process.on('SIGHUP', onSignal);
    if (process.send) process.on('message', onMessage);
    app.addHook('onClose', async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      process.off('SIGHUP', onSignal);
      process.off('message', onMessage);
    });
  }

  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  return { app, url: `http://localhost:${port}`, close };
}
