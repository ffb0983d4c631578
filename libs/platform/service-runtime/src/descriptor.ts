import { commonSettings, Config, envPrefix, loadConfig, Schema } from '@bindery/platform/config';
import { GrpcRegistration, setMessageLimits } from '@bindery/platform/grpc';
import type { Db, IndexPlan } from '@bindery/platform/mongo';
import { RUN_INDEXES, RunHandlers, RunStore, RunWorker, Schedule } from '@bindery/platform/runs';
import { logger } from '@bindery/platform/telemetry';
import { runService, RunningService, STOP_BUDGET } from './service-runtime';
import { stopOnSignals } from './stop-on-signals';
import type { ConsumerGroupSpec } from './consumers';
import { RUN_SETTINGS, runTimingsOf } from './run-settings';

/** The deployment facts of an app, from `apps/<name>/service.json` (read by the stack, tests and deploy too). */
export interface ServiceManifest {
  name: string;
  kind: 'grpc' | 'http';
  port: number;
  database?: string;
  secrets?: string[];
}

/** What every service's settings hold besides its own: the shared ones, its run worker's, its port and its database. */
export type BaseConfig = Config<typeof commonSettings> & Config<typeof RUN_SETTINGS> & { grpcPort: number; database: string };

/**
 * The durable runs a service executes (libs/platform/runs): its handlers by run kind, and the work it
 * repeats on a schedule (each occurrence is a run, executed by one replica).
 */
export interface ServiceRuns {
  handlers: RunHandlers;
  schedules?: Schedule[];
}

/**
 * Everything a service is, beyond its domain code: its settings, its database, its gRPC services,
 * the events it consumes and the runs it executes. The platform does the rest (startup order, health,
 * outbox relay, consumers, the run worker, stopping).
 */
export interface ServiceDescriptor<S extends Schema, D> {
  name: string;
  /** the service's own settings (validated with the shared ones at start) */
  settings: S;
  indexes: IndexPlan;
  /** collections whose documents carry an outbox of events to relay */
  outboxCollections: string[];
  /** `runs` enqueues runs (in the transaction of the write that asks for them) and reads them */
  deps(context: { db: Db; config: Config<S> & BaseConfig; eventsRecorded: () => void; runs: RunStore }): D;
  init?(deps: D, config: Config<S> & BaseConfig): Promise<void>;
  dispose?(deps: D): Promise<void>;
  grpc(deps: D, config: Config<S> & BaseConfig): GrpcRegistration[];
  /** consumer group name → the services whose events it reads, and its handlers */
  consumers?(deps: D, config: Config<S> & BaseConfig): Record<string, ConsumerGroupSpec>;
  runs?(deps: D, config: Config<S> & BaseConfig): ServiceRuns;
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
  const loaded = loadConfig({ ...commonSettings, ...RUN_SETTINGS, ...own, ...descriptor.settings }, env) as Record<string, unknown>;
  return {
    ...loaded,
    grpcPort: loaded[`${prefix}_GRPC_PORT`] as number,
    database: loaded[`${prefix}_DB`] as string,
  } as Config<S> & BaseConfig;
}

/**
 * Runs a service from its descriptor and settings; answers the running service (used by main and by
 * service tests). The run worker starts once the gRPC server and consumers are up, and stops first
 * (its runs aborted and given back) when the service stops.
 */
export async function startService<S extends Schema, D>(descriptor: ServiceDescriptor<S, D>, config: Config<S> & BaseConfig): Promise<RunningService<D>> {
  // Before any server or channel exists: every one of them takes the limits.
  setMessageLimits({ maxSendBytes: config.GRPC_MAX_SEND_MESSAGE_BYTES, maxReceiveBytes: config.GRPC_MAX_RECEIVE_MESSAGE_BYTES });
  let worker: RunWorker | undefined;
  let runs: RunStore | undefined;
  const running = await runService<D>({
    name: descriptor.name,
    mongoUrl: config.MONGODB_URL,
    dbName: config.database,
    kafkaBrokers: config.KAFKA_BROKERS,
    grpcPort: config.grpcPort,
    grpcHost: config.GRPC_BIND_ADDRESS,
    outboxSweepMs: config.OUTBOX_POLL_MS,
    kafkaNamespace: config.KAFKA_NAMESPACE,
    indexes: { ...descriptor.indexes, ...RUN_INDEXES },
    outboxCollections: descriptor.outboxCollections,
    deps: (db, eventsRecorded) => {
      runs = new RunStore(db, runTimingsOf(config));
      return descriptor.deps({ db, config, eventsRecorded, runs });
    },
    init: descriptor.init && ((deps) => descriptor.init!(deps, config)),
    dispose: async (deps) => {
      await worker?.stop();
      await descriptor.dispose?.(deps);
    },
    services: (deps) => descriptor.grpc(deps, config),
    consumers: descriptor.consumers && ((deps) => descriptor.consumers!(deps, config)),
    consumerRetry: { attempts: config.EVENT_HANDLER_ATTEMPTS, backoffMs: config.EVENT_RETRY_BACKOFF_MS, maxBackoffMs: 2000 },
    consumerCatchUpMs: config.CONSUMER_CATCH_UP_MS,
  });
  const declared = descriptor.runs?.(running.deps, config);
  if (declared && runs) {
    worker = new RunWorker(runs, { ...declared, concurrency: config.RUNS_CONCURRENCY, service: descriptor.name });
    worker.start();
  }
  return running;
}

/** The whole `main` of a service app: settings, start, stop on signals. */
export function serviceMain<S extends Schema, D>(descriptor: ServiceDescriptor<S, D>, manifest: ServiceManifest): void {
  (async () => {
    const service = await startService(descriptor, loadServiceConfig(descriptor, manifest));
    stopOnSignals(() => service.stop(), { deadlineMs: STOP_BUDGET.totalMs, flushMs: STOP_BUDGET.flushMs });
  })().catch((err) => {
    logger.error(`${descriptor.name} failed to start`, { error: err instanceof Error ? err.message : String(err) });
    process.exit(1);
  });
}
