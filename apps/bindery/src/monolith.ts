import { asService, logger } from '@bindery/platform/telemetry';
import type { HostedService, RunningHttpApp } from '@bindery/platform/service-runtime';
import { prepareGateway } from '@bindery/gateway/server';
import { startReader } from '@bindery/reader/site';
import { selectApps } from './selection';

/** How long the gateway and the reader give in-flight requests at a stop, before the services stop. */
export const HTTP_STOP_MS = 400;

interface Started {
  name: string;
  stop(): Promise<void>;
}

export interface RunningMonolith {
  /** the apps hosted, by name, with the milliseconds each took to start */
  started: Record<string, number>;
  /** the gateway and the reader first (no new call reaches a service), then every service at once */
  stop(): Promise<void>;
}

/** Waits for every start; answers the started ones and the first failure, so none is left running behind it. */
async function startAll<T>(items: T[], start: (item: T) => Promise<Started>): Promise<{ started: Started[]; failure?: unknown }> {
  const outcomes = await Promise.allSettled(items.map(start));
  const started = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  return { started, failure: failed?.reason };
}

/**
 * Starts the apps BINDERY_SERVICES names in this one process: each gRPC service as its own app would
 * (its own port, database, Kafka producer and consumers; calls between services still cross gRPC on
 * loopback), all at once, then the gateway and the reader. Each app's log lines carry its name.
 */
export async function startMonolith(hosted: HostedService[], env: NodeJS.ProcessEnv): Promise<RunningMonolith> {
  const t0 = Date.now();
  const chosen = selectApps(
    env.BINDERY_SERVICES,
    hosted.map((s) => s.name),
  );
  const timings: Record<string, number> = {};
  const timed = async (name: string, start: () => Promise<() => Promise<void>>): Promise<Started> =>
    asService(name, async () => {
      const t = Date.now();
      const stop = await start();
      timings[name] = Date.now() - t;
      return { name, stop: () => asService(name, stop) };
    });

  // The gateway's CPU-heavy build first (its schemas compiled): done while the services start, it
  // would hold up their consumers' first heartbeats on a loaded machine.
  const gateway = chosen.http.includes('gateway') ? asService('gateway', () => prepareGateway(env)) : undefined;
  const preparedMs = Date.now() - t0;
  const httpStarts: Record<string, () => Promise<RunningHttpApp>> = { gateway: () => gateway!.listen(), reader: () => startReader(env) };
  const services = await startAll(
    hosted.filter((s) => chosen.services.includes(s.name)),
    (s) => timed(s.name, async () => (await s.start(env)).stop),
  );
  const stopServices = () => Promise.all(services.started.map((s) => s.stop())).then(() => undefined);
  if (services.failure) {
    gateway?.close();
    await stopServices();
    throw services.failure;
  }
  const servicesMs = Date.now() - t0 - preparedMs;
  const http = await startAll(chosen.http, (name) =>
    timed(name, async () => {
      const app = await httpStarts[name]();
      return () => app.stop(HTTP_STOP_MS);
    }),
  );
  const stop = async () => {
    await Promise.all(http.started.map((a) => a.stop()));
    await stopServices();
  };
  if (http.failure) {
    await stop();
    throw http.failure;
  }
  // processMs: since the process started (loading the code takes the difference).
  logger.info('bindery started', {
    processMs: Math.round(process.uptime() * 1000),
    ms: Date.now() - t0,
    gatewayBuildMs: preparedMs,
    servicesMs,
    httpMs: Date.now() - t0 - preparedMs - servicesMs,
    apps: timings,
  });
  return { started: timings, stop };
}
