import type { Kafka } from '@bindery/platform/events';
import {
  applyEvent,
  BatchHandler,
  ConsumerLiveness,
  DeadLetterStore,
  ensureTopics,
  errorText,
  EventHandlers,
  ProcessedEvents,
  RetryPolicy,
  RunningConsumer,
  startConsumer,
  topicOf,
} from '@bindery/platform/events';
import { logger } from '@bindery/platform/telemetry';

/** A consumer group as a service declares it: the services whose events it reads, and its handlers. */
export interface ConsumerGroupSpec {
  from: string[];
  handlers: EventHandlers;
  /** attached to the group's positions and the broker's end offsets once it runs (a projection that decides only while current) */
  liveness?: ConsumerLiveness;
  /** called after each event this group applied has committed (a cache of what the handlers write forgets it) */
  applied?: () => void;
  /** applies a fetched batch in one transaction (see `startConsumer`); the handlers apply a batch that failed */
  batch?: BatchHandler;
}

export interface ServiceConsumersOptions {
  service: string;
  kafka: Kafka;
  /** topic and group prefix */
  namespace: string;
  groups: Record<string, ConsumerGroupSpec>;
  processed: ProcessedEvents;
  deadLetters: DeadLetterStore;
  retry: RetryPolicy;
  /** called after an event applied (the outbox relay is woken: a handler's own events are committed now) */
  applied?: () => void;
  /** how long a start waits for the consumers to catch up before the service reports SERVING anyway */
  catchUpMs: number;
}

export type ReplayOutcome = { replayed: true; applied: boolean } | { replayed: false; error: string };

/**
 * A service's consumer groups: started after its gRPC server, and `ready` only once each has joined
 * its group and reached the end offsets its partitions had at the join (or `catchUpMs` passed,
 * logged), so a service does not report SERVING while it still applies what happened before it started.
 */
export class ServiceConsumers {
  private running = new Map<string, RunningConsumer>();
  private caughtUp = false;

  constructor(private readonly options: ServiceConsumersOptions) {}

  /** the health check's view: no consumers, or all caught up (or the wait for them was cut) */
  get ready(): boolean {
    return this.caughtUp;
  }

  /** the events these groups gave up on */
  get deadLetters(): DeadLetterStore {
    return this.options.deadLetters;
  }

  /** each group's health (liveness: `lastFetchAt`; lag: `caughtUp`), by group id */
  health() {
    return Object.fromEntries([...this.running].map(([groupId, r]) => [groupId, r.health]));
  }

  async start(): Promise<void> {
    const { kafka, namespace, groups, processed, deadLetters, retry } = this.options;
    // The groups join side by side: each join is a few broker round trips, independent of the others'.
    const starting = Object.entries(groups).map(async ([group, spec]) => {
      const topics = spec.from.map((service) => namespace + topicOf(service));
      await ensureTopics(kafka, topics);
      const running = await startConsumer({
        kafka,
        groupId: namespace + group,
        topics,
        handlers: spec.handlers,
        batch: spec.batch,
        processed,
        deadLetters,
        retry,
        applied: () => {
          this.options.applied?.();
          spec.applied?.();
        },
      });
      spec.liveness?.attach(running.health, running.endOffsets);
      this.running.set(namespace + group, running);
    });
    const outcomes = await Promise.allSettled(starting);
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
    if (failed) throw failed.reason;
    this.awaitCatchUp();
  }

  /** Waits in the background (a start stays cheap): ready when every group started up, or when the bound is reached. */
  private awaitCatchUp(): void {
    const t0 = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const cut = new Promise<'cut'>((resolve) => {
      timer = setTimeout(() => resolve('cut'), this.options.catchUpMs);
      timer.unref();
    });
    Promise.race([Promise.all([...this.running.values()].map((r) => r.health.startedUp)).then(() => 'done' as const), cut]).then((how) => {
      clearTimeout(timer);
      this.caughtUp = true;
      if (how === 'cut') logger.warn('consumers had not caught up when the wait ended; reporting SERVING anyway', { service: this.options.service, waitedMs: Date.now() - t0 });
      else if (this.running.size) logger.info('consumers caught up', { service: this.options.service, ms: Date.now() - t0 });
    });
  }

  async stop(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.stop()));
  }

  /**
   * Runs a dead letter's event through its group's handler again (still at most once: the marker
   * decides) and removes the letter when it applied or had been applied already; a new failure is
   * added to the letter and answered.
   */
  async replay(id: string): Promise<ReplayOutcome | undefined> {
    const letter = await this.options.deadLetters.get(id);
    if (!letter) return undefined;
    const group = Object.entries(this.options.groups).find(([g]) => this.options.namespace + g === letter.consumer)?.[1];
    const handler = group?.handlers[letter.event.type];
    if (!handler) return { replayed: false, error: `no handler of ${letter.event.type} in consumer ${letter.consumer} any more` };
    try {
      const applied = await applyEvent(this.options.processed, letter.consumer, handler, letter.event);
      if (applied) this.options.applied?.();
      await this.options.deadLetters.remove(id);
      logger.info('dead letter replayed', { consumer: letter.consumer, eventId: letter.event.id, applied });
      return { replayed: true, applied };
    } catch (err) {
      await this.options.deadLetters.failedAgain(id, 1, errorText(err));
      return { replayed: false, error: errorText(err) };
    }
  }
}
