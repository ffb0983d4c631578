import { logger } from '@bindery/platform/telemetry';
import { stopOnSignals } from './stop-on-signals';
import type { Server } from 'node:http';

/**
 * Closes an HTTP server: it takes no new connection, in-flight requests finish, a keep-alive
 * connection is closed as soon as it is idle, and every connection is cut after `budgetMs`.
 * Resolves once the server is closed.
 */
export function closeHttpServer(server: Server, budgetMs: number): Promise<void> {
  return new Promise((resolve) => {
    const idle = setInterval(() => server.closeIdleConnections(), 50);
    const cut = setTimeout(() => server.closeAllConnections(), budgetMs);
    idle.unref();
    cut.unref();
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Listens on `port` (and `address` when given); resolves once listening, rejects when the port is taken. */
export function listen(server: Server, port: number, address?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    const listening = () => {
      server.removeListener('error', reject);
      const bound = server.address();
      resolve(typeof bound === 'object' && bound ? bound.port : port);
    };
    if (address) server.listen(port, address, listening);
    else server.listen(port, listening);
  });
}

/** A started HTTP app (the gateway, the reader): the port it listens on, and how it stops. */
export interface RunningHttpApp {
  port: number;
  /** in-flight requests get `budgetMs` to finish; then connections and channels are closed */
  stop(budgetMs: number): Promise<void>;
}

/** How long an HTTP app takes at most from SIGTERM to its exit. */
const HTTP_STOP_BUDGET_MS = 1900;

/**
 * The whole `main` of an HTTP app run alone: starts it and, on SIGTERM/SIGINT (stopOnSignals), lets
 * in-flight requests finish, idle keep-alive connections close at once and every connection at
 * HTTP_STOP_BUDGET_MS - 400, then exits (within HTTP_STOP_BUDGET_MS whatever happens). A failed start exits 1.
 */
export function httpAppMain(name: string, start: () => Promise<RunningHttpApp>): void {
  start().then(
    (app) => {
      stopOnSignals(() => app.stop(HTTP_STOP_BUDGET_MS - 400), { deadlineMs: HTTP_STOP_BUDGET_MS, flushMs: 200 });
    },
    (err) => {
      logger.error(`${name} failed to start`, { error: err instanceof Error ? err.message : String(err) });
      process.exit(1);
    },
  );
}
