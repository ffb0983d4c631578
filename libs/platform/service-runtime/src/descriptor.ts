import { commonSettings, Config, envPrefix, loadConfig, Schema } from '@bindery/platform/config';
import { GrpcRegistration, setMessageLimits } from '@bindery/platform/grpc';
import type { Db, IndexPlan } from '@bindery/platform/mongo';
import { flushTelemetry, logger } from '@bindery/platform/telemetry';
import { runService, RunningService, stopOnSignals } from './service-runtime';
import type { ConsumerGroupSpec } from './consumers';

/** The deployment facts of an app, from `apps/<name>/service.json` (read by the stack, tests and deploy too). */
export interface ServiceManifest {
  name: string;
  kind: 'grpc' | 'http';
  port: number;
  database?: string;
  secrets?: string[];
}

/** What every service's settings hold besides its own: the shared ones, its port and its database. */
export type BaseConfig = Config<typeof commonSettings> & { grpcPort: number; database: string };

/** Work a service repeats while it runs (a sweep, a purge). A failed run is logged and retried next time. */
export interface Job {
  name: string;
  everyMs: number;
  run(): Promise<void>;
}

/**
 * Everything a service is, beyond its domain code: its settings, its database, its gRPC services,
 * the events it consumes and the jobs it runs. The platform does the rest (startup order, health,
 * outbox relay, consumers, stopping).
 */
export interface ServiceDescriptor<S extends Schema, D> {
  name: string;
  /** the service's own settings (validated with the shared ones at start) */
  settings: S;
  indexes: IndexPlan;
  /** collections whose documents carry an outbox of events to relay */
  outboxCollections: string[];
  deps(context: { db: Db; config: Config<S> & BaseConfig; eventsRecorded: () => void }): D;
  init?(deps: D, config: Config<S> & BaseConfig): Promise<void>;
  dispose?(deps: D): Promise<void>;
  grpc(deps: D, config: Config<S> & BaseConfig): GrpcRegistration[];
  /** consumer group name → the services whose events it reads, and its handlers */
  consumers?(deps: D, config: Config<S> & BaseConfig): Record<string, ConsumerGroupSpec>;
  jobs?(deps: D, config: Config<S> & BaseConfig): Job[];
}

export function defineService<S extends Schema, D>(descriptor: ServiceDescriptor<S, D>): ServiceDescriptor<S, D> {
  return descriptor;
}

/** Reads a service's settings from the environment, its port and database defaulting to the manifest's. */
export function loadServiceConfig<S extends Schema, D>(descriptor: ServiceDescriptor<S, D>, manifest: ServiceManifest, env: NodeJS.ProcessEnv = process.env) {
  const prefix = envPrefix(descriptor.name);
  const own = {
    [`${prefix}_GRPC_PORT`]: { kind: 'int', default: manifest.port, min: 0, max: 65535 },
    [`${prefix}_DB`]: { kind: 'string', default: manifest.database ?? `bindery_${prefix.toLowerCase()}` },
  } satisfies Schema;
  const loaded = loadConfig({ ...commonSettings, ...own, ...descriptor.settings }, env) as Record<string, unknown>;
  return {
    ...loaded,
    grpcPort: loaded[`${prefix}_GRPC_PORT`] as number,
    database: loaded[`${prefix}_DB`] as string,
  } as Config<S> & BaseConfig;
}

/** Runs a service from its descriptor and settings; answers the running service (used by main and by service tests). */
export async function startService<S extends Schema, D>(descriptor: ServiceDescriptor<S, D>, config: Config<S> & BaseConfig): Promise<RunningService<D>> {
  // Before any server or channel exists: every one of them takes the limits.
  setMessageLimits({ maxSendBytes: config.GRPC_MAX_SEND_MESSAGE_BYTES, maxReceiveBytes: config.GRPC_MAX_RECEIVE_MESSAGE_BYTES });
  const timers: NodeJS.Timeout[] = [];
  const running = await runService<D>({
    name: descriptor.name,
    mongoUrl: config.MONGODB_URL,
    dbName: config.database,
    kafkaBrokers: config.KAFKA_BROKERS,
    grpcPort: config.grpcPort,
    grpcHost: config.GRPC_BIND_ADDRESS,
    outboxPollMs: config.OUTBOX_POLL_MS,
    kafkaNamespace: config.KAFKA_NAMESPACE,
    indexes: descriptor.indexes,
    outboxCollections: descriptor.outboxCollections,
    deps: (db, eventsRecorded) => descriptor.deps({ db, config, eventsRecorded }),
    init: descriptor.init && ((deps) => descriptor.init!(deps, config)),
    dispose: async (deps) => {
      for (const t of timers) clearInterval(t);
      await descriptor.dispose?.(deps);
    },
    services: (deps) => descriptor.grpc(deps, config),
    consumers: descriptor.consumers && ((deps) => descriptor.consumers!(deps, config)),
    consumerRetry: { attempts: config.EVENT_HANDLER_ATTEMPTS, backoffMs: config.EVENT_RETRY_BACKOFF_MS, maxBackoffMs: 2000 },
    consumerCatchUpMs: config.CONSUMER_CATCH_UP_MS,
  });
  for (const job of descriptor.jobs?.(running.deps, config) ?? []) {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      job
        .run()
        .catch((err) => logger.error('job failed', { service: descriptor.name, job: job.name, error: String(err) }))
        .finally(() => (busy = false));
    }, job.everyMs);
    timer.unref();
    timers.push(timer);
  }
  return running;
}

/** The whole `main` of a service app: settings, start, stop on signals. */
export function serviceMain<S extends Schema, D>(descriptor: ServiceDescriptor<S, D>, manifest: ServiceManifest): void {
  (async () => {
    const service = await startService(descriptor, loadServiceConfig(descriptor, manifest));
    stopOnSignals(() => service.stop(), flushTelemetry);
  })().catch((err) => {
    logger.error(`${descriptor.name} failed to start`, { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  });
}
