import { context, propagation, ROOT_CONTEXT } from '@opentelemetry/api';
import { Producer } from 'kafkajs';
import { logger } from '@bindery/platform/telemetry';
import { EventEnvelope } from './envelope';

/** Where pending outbox events are read from and marked published (implemented on MongoDB). */
export interface OutboxStore {
  /** Documents with pending events, oldest events first, at most `limit`. */
  pending(limit: number): Promise<Array<{ collection: string; docId: string; events: EventEnvelope[] }>>;
  markPublished(collection: string, docId: string, eventId: string): Promise<void>;
  /**
   * Reports, from any process, each write that left events pending (`onPending`), that reports may
   * have been missed (`onGap`: the watch broke) and that the watch is open again (`onLive`). Without
   * it the relay relies on local kicks and its sweep.
   */
  watch?(listener: { onPending(): void; onGap(): void; onLive(): void }): { whenLive(): Promise<void>; close(): Promise<void> };
}

/** How often a relay sweeps the outbox when nothing woke it (OUTBOX_POLL_MS). */
export const OUTBOX_SWEEP_MS = 30_000;

/**
 * Moves recorded events from the outbox to Kafka: at least once (a crash after the send and before
 * the mark sends again; consumers drop the duplicate by event id). It drains when woken: by a local
 * write that recorded events (a kick), by the store's watch reporting such a write from any process
 * (a MongoDB change stream), and by a slow sweep every `sweepMs` that catches anything both missed.
 * When the watch breaks it drains at once, and again once the watch is open: an event recorded
 * while nothing watched is relayed then. Idle, it costs one sweep every `sweepMs` and the watch's wait.
 */
export class OutboxRelay {
  private timer?: NodeJS.Timeout;
  private running = false;
  private draining?: Promise<void>;
  private again = false;
  private watch?: { whenLive(): Promise<void>; close(): Promise<void> };

  constructor(
    private readonly store: OutboxStore,
    private readonly producer: Producer,
    private readonly topic: string,
    private readonly sweepMs: number = OUTBOX_SWEEP_MS,
  ) {}

  start(): void {
    this.running = true;
    const kick = () => this.kick();
    this.watch = this.store.watch?.({ onPending: kick, onGap: kick, onLive: kick });
    this.schedule(0);
  }

  /** Resolves once writes of other processes wake the relay (at once when the store has no watch). */
  async whenWatching(): Promise<void> {
    await this.watch?.whenLive();
  }

  async stop(): Promise<void> {
    this.running = false;
    clearTimeout(this.timer);
    await Promise.all([this.watch?.close(), this.draining]);
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
    // later sweep into that request's trace.
    this.timer = setTimeout(
      context.bind(ROOT_CONTEXT, () => {
        this.draining = this.drain().finally(() => {
          this.draining = undefined;
          if (this.running) this.schedule(this.again ? 0 : this.sweepMs);
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
