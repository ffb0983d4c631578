import { ServiceDefinition, UntypedServiceImplementation } from '@grpc/grpc-js';
import type { Consumer, Producer } from '@bindery/platform/events';
import { createKafka, ensureTopics, EventHandlers, kafkaReachable, OutboxRelay, startConsumer, topicOf } from '@bindery/platform/events';
import { callerSignatureRequired, createGrpcServer, createHealthService, startGrpcServer, stopGrpcServer } from '@bindery/platform/grpc';
import { connectMongo, Db, ensureIndexes, IndexPlan, mongoOutboxStore, mongoProcessedEvents, MongoHandle } from '@bindery/platform/mongo';
import { HealthService } from '@bindery/shared/contracts';
import { logger } from '@bindery/platform/telemetry';

export interface ServiceSpec<D> {
  /** service name: the Kafka topic is bindery.<name>.v1 and the client id <name> */
  name: string;
  mongoUrl: string;
  dbName: string;
  kafkaBrokers: string[];
  grpcPort: number;
  outboxPollMs: number;
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
  consumers?(deps: D): Record<string, { from: string[]; handlers: EventHandlers }>;
}

export interface RunningService<D> {
  port: number;
  deps: D;
  mongo: MongoHandle;
  stop(): Promise<void>;
}

/**
 * Starts one service: MongoDB (indexes ensured) → Kafka topic, producer and outbox relay → gRPC
 * handlers and the standard health service → event consumers. Stopping reverses it.
 */
export async function runService<D>(spec: ServiceSpec<D>): Promise<RunningService<D>> {
  const mongo = await connectMongo(spec.mongoUrl, spec.dbName, spec.name);
  await ensureIndexes(mongo.db, spec.indexes);

  const kafka = createKafka(spec.kafkaBrokers, spec.name);
  const ns = spec.kafkaNamespace ?? '';
  const topic = ns + topicOf(spec.name);
  await ensureTopics(kafka, [topic]);
  const producer: Producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const admin = kafka.admin();
  await admin.connect();
  const relay = new OutboxRelay(mongoOutboxStore(mongo.db, spec.outboxCollections), producer, topic, spec.outboxPollMs);
  const deps = spec.deps(mongo.db, () => relay.kick());
  await spec.init?.(deps);

  const server = createGrpcServer();
  for (const s of spec.services(deps)) server.addService(s.definition, s.implementation);
  server.addService(HealthService, createHealthService([mongo.ping, () => kafkaReachable(admin)]) as unknown as UntypedServiceImplementation);
  const port = await startGrpcServer(server, spec.grpcPort);
  relay.start();

  const consumers: Consumer[] = [];
  for (const [groupId, c] of Object.entries(spec.consumers?.(deps) ?? {})) {
    const topics = c.from.map((service) => ns + topicOf(service));
    await ensureTopics(kafka, topics);
    consumers.push(await startConsumer({ kafka, groupId: ns + groupId, topics, handlers: c.handlers, processed: mongoProcessedEvents(mongo.db) }));
  }
  if (!callerSignatureRequired()) logger.warn('BINDERY_INTERNAL_SECRET is not set: caller metadata is trusted unsigned; keep the gRPC port private');
  logger.info('service started', { service: spec.name, port });

  return {
    port,
    deps,
    mongo,
    async stop() {
      const t0 = Date.now();
      const phase = (name: string) => logger.debug(`stopped ${name}`, { service: spec.name, ms: Date.now() - t0 });
      await stopGrpcServer(server);
      phase('grpc');
      await Promise.all(consumers.map((c) => c.disconnect().catch(() => undefined)));
      phase('consumers');
      await relay.stop();
      await producer.disconnect().catch(() => undefined);
      await admin.disconnect().catch(() => undefined);
      phase('kafka');
      await spec.dispose?.(deps);
      await mongo.close();
      phase('mongo');
    },
  };
}

/** Stops the service on SIGTERM/SIGINT, then exits. */
export function stopOnSignals(stop: () => Promise<void>, flush: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('stopping', { signal });
    stop()
      .then(flush)
      .then(
        () => process.exit(0),
        (err) => {
          logger.error('error while stopping', { error: String(err) });
          process.exit(1);
        },
      );
  };
  process.once('SIGTERM', handler);
  process.once('SIGINT', handler);
}
