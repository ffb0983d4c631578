import { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Producer } from '@bindery/platform/events';
import { createKafka, DEFAULT_RETRY, ensureTopics, kafkaReachable, OutboxRelay, RetryPolicy, topicOf } from '@bindery/platform/events';
import { callerSignatureRequired, createGrpcServer, createHealthService, startGrpcServer, stopGrpcServer } from '@bindery/platform/grpc';
import {
  connectMongo,
  Db,
  DEAD_LETTER_INDEXES,
  ensureIndexes,
  IndexPlan,
  mongoDeadLetters,
  mongoOutboxStore,
  mongoProcessedEvents,
  MongoHandle,
  processedEventsIndexes,
} from '@bindery/platform/mongo';
import { HealthService } from '@bindery/shared/contracts';
import { asService, logger } from '@bindery/platform/telemetry';
import { ConsumerGroupSpec, ServiceConsumers } from './consumers';
import { eventsAdminService } from './events-admin';

export interface ServiceSpec<D> {
  /** service name: the Kafka topic is bindery.<name>.v1 and the client id <name> */
  name: string;
  mongoUrl: string;
  dbName: string;
  kafkaBrokers: string[];
  grpcPort: number;
  /** the address the gRPC server binds (default loopback) */
  grpcHost?: string;
  /** how often the outbox relay sweeps when nothing woke it (writes wake it, local or not) */
  outboxSweepMs: number;
  /** prefix for topics and consumer groups, so stacks can share a broker (tests, staging) */
  kafkaNamespace?: string;
  indexes: IndexPlan;
  outboxCollections: string[];
  /** builds the use-case dependencies; `eventsRecorded` kicks the outbox relay */
  deps(db: Db, eventsRecorded: () => void): D;
  /** runs once after indexes exist, before the server accepts calls (bootstrap data) */
  init?(deps: D): Promise<void>;
  /** releases what `deps` holds (change streams, timers) before the database connection closes */
  dispose?(deps: D): Promise<void>;
  services(deps: D): Array<{ definition: ServiceDefinition; implementation: UntypedServiceImplementation }>;
  /** consumer group name → the services whose events it reads, and its handlers */
  consumers?(deps: D): Record<string, ConsumerGroupSpec>;
  /** how a consumer retries a failing handler before it dead-letters the event */
  consumerRetry?: RetryPolicy;
  /** how long health waits for the consumers to catch up at start (default 30 s) */
  consumerCatchUpMs?: number;
}

export interface RunningService<D> {
  port: number;
  deps: D;
  mongo: MongoHandle;
  /** the consumer groups (health of each, replay of dead letters) */
  consumers: ServiceConsumers;
  stop(): Promise<void>;
}

/**
 * Starts one service: MongoDB (indexes ensured) → Kafka topic, producer and outbox relay → gRPC
 * handlers, EventsAdmin and the standard health service → event consumers (health answers
 * NOT_SERVING until they caught up, see consumers.ts). Stopping reverses it.
 */
export async function runService<D>(spec: ServiceSpec<D>): Promise<RunningService<D>> {
  const mongo = await connectMongo(spec.mongoUrl, spec.dbName, spec.name);
  await ensureIndexes(mongo.db, { ...spec.indexes, ...processedEventsIndexes(), ...DEAD_LETTER_INDEXES });

  const kafka = createKafka(spec.kafkaBrokers, spec.name);
  const ns = spec.kafkaNamespace ?? '';
  const topic = ns + topicOf(spec.name);
  await ensureTopics(kafka, [topic]);
  const producer: Producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const admin = kafka.admin();
  await admin.connect();
  const relay = new OutboxRelay(mongoOutboxStore(mongo.db, spec.outboxCollections), producer, topic, spec.outboxSweepMs);
  const deps = spec.deps(mongo.db, () => relay.kick());
  await spec.init?.(deps);

  const consumers = new ServiceConsumers({
    service: spec.name,
    kafka,
    namespace: ns,
    groups: spec.consumers?.(deps) ?? {},
    processed: mongoProcessedEvents(mongo.db),
    deadLetters: mongoDeadLetters(mongo.db),
    retry: spec.consumerRetry ?? DEFAULT_RETRY,
    catchUpMs: spec.consumerCatchUpMs ?? 30000,
    applied: () => relay.kick(),
  });

  const server = createGrpcServer();
  for (const s of spec.services(deps)) server.addService(s.definition, inService(spec.name, s.implementation));
  const eventsAdmin = eventsAdminService(consumers);
  server.addService(eventsAdmin.definition, eventsAdmin.implementation);
  // NOT_SERVING until the consumers caught up with what happened before this start.
  server.addService(HealthService, createHealthService([mongo.ping, () => kafkaReachable(admin), async () => consumers.ready]) as unknown as UntypedServiceImplementation);
  const port = await startGrpcServer(server, spec.grpcPort, spec.grpcHost);
  relay.start();

  await consumers.start();
  if (!callerSignatureRequired()) logger.warn('BINDERY_INTERNAL_SECRET is not set: caller metadata is trusted unsigned; keep the gRPC port private');
  logger.info('service started', { service: spec.name, port });

  return {
    port,
    deps,
    mongo,
    consumers,
    async stop() {
      const t0 = Date.now();
      const phase = (name: string) => logger.debug(`stopped ${name}`, { service: spec.name, ms: Date.now() - t0 });
      // Calls under way get STOP_BUDGET.grpcMs to finish; every later phase is bounded too, so a
      // stop never waits on a broker or a database that no longer answers.
      await stopGrpcServer(server, STOP_BUDGET.grpcMs);
      phase('grpc');
      await bounded(consumers.stop(), STOP_BUDGET.kafkaMs, 'consumers', spec.name);
      phase('consumers');
      const relayed = relay.stop().then(() => Promise.all([producer.disconnect().catch(() => undefined), admin.disconnect().catch(() => undefined)]));
      await bounded(relayed, STOP_BUDGET.kafkaMs, 'outbox relay and producer', spec.name);
      phase('kafka');
      const closeDatabase = async () => {
        await spec.dispose?.(deps);
        await mongo.close();
      };
      await bounded(closeDatabase(), STOP_BUDGET.mongoMs, 'database', spec.name);
      phase('mongo');
    },
  };
}

/**
 * The handlers, each call run as `service`'s work: where one process hosts several services
 * (apps/bindery), the call's log lines and spans name the service that answers it.
 */
function inService(service: string, implementation: UntypedServiceImplementation): UntypedServiceImplementation {
  return Object.fromEntries(
    Object.entries(implementation).map(([method, handler]) => [method, (...args: unknown[]) => asService(service, () => (handler as (...a: unknown[]) => unknown)(...args))]),
  ) as UntypedServiceImplementation;
}

/**
 * How long each phase of a stop may take (ms). Together they stay under STOP_BUDGET.totalMs, after
 * which `stopOnSignals` (stop-on-signals.ts) exits anyway: a service exits within 2 s of SIGTERM.
 */
export const STOP_BUDGET = { grpcMs: 800, kafkaMs: 300, mongoMs: 200, flushMs: 200, totalMs: 1900 };

/** Waits for `work`, but no longer than `ms`; a phase that overruns is logged and left behind. */
async function bounded(work: Promise<unknown>, ms: number, what: string, service: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  const outcome = await Promise.race([
    work.then(
      () => 'done' as const,
      () => 'done' as const,
    ),
    late,
  ]);
  clearTimeout(timer);
  if (outcome === 'late') logger.warn(`stopping ${what} took more than ${ms} ms; not waiting for it`, { service });
}
