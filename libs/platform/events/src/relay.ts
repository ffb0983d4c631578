import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { Producer } from 'kafkajs';
import { logger } from '@bindery/platform/telemetry';
import { EventEnvelope } from './envelope';

/** Where pending outbox events are read from and marked published (implemented on MongoDB). */
export interface OutboxStore {
  /** Documents with pending events, oldest events first, at most `limit`. */
  pending(limit: number): Promise<Array<{ collection: string; docId: string; events: EventEnvelope[] }>>;
  markPublished(collection: string, docId: string, eventId: string): Promise<void>;
}

/**
 * Moves recorded events from the outbox to Kafka: at least once (a crash after the send and before
 * the mark sends again; consumers drop the duplicate by event id). Polls, and is kicked right after a
 * local write so events usually leave within milliseconds.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running = false;
  private draining?: Promise<void>;
  private again = false;

  constructor(
    private readonly store: OutboxStore,
    private readonly producer: Producer,
    private readonly topic: string,
    private readonly pollMs: number,
  ) {}

  start(): void {
    this.running = true;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await this.draining;
  }

  /** Asks for a drain as soon as possible (after a write that recorded events). */
  kick(): void {
    if (!this.running) return;
    if (this.draining) this.again = true;
    else this.schedule(0);
  }

  private schedule(ms: number) {
    clearTimeout(this.timer);
    // The relay's own work belongs to no request: a kick from inside a request must not put every
    // later poll into that request's trace.
    this.timer = setTimeout(
      context.bind(ROOT_CONTEXT, () => {
        this.draining = this.drain().finally(() => {
          this.draining = undefined;
          if (this.running) this.schedule(this.again ? 0 : this.pollMs);
          this.again = false;
        });
      }),
      ms,
    );
  }

  /** Publishes everything pending now; returns how many events were sent. */
  async drain(): Promise<void> {
    try {
      for (;;) {
        const batch = await this.store.pending(100);
        if (!batch.length) return;
        for (const doc of batch) {
          for (const event of doc.events) {
            await this.publish(event);
            await this.store.markPublished(doc.collection, doc.docId, event.id);
          }
        }
      }
    } catch (err) {
      logger.warn('outbox relay could not publish; will retry', { error: err instanceof Error ? err.message : String(err) });
    }
  }

  private async publish(event: EventEnvelope) {
    // Send within the trace of the change that recorded the event, so the broker hop joins it.
    const parent = propagation.extract(ROOT_CONTEXT, event.traceparent ? { traceparent: event.traceparent } : {});
    await context.with(parent, () =>
      this.producer.send({
        topic: this.topic,
        acks: -1,
        messages: [{ key: event.subject, value: JSON.stringify(event), headers: { 'ce-id': event.id, 'ce-type': event.type } }],
      }),
    );
  }
}
