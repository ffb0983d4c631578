import type { EventEnvelope } from './envelope';

/** An event a consumer group gave up on: kept with why and where it came from, until replayed. */
export interface DeadLetter {
  id: string;
  /** the consumer group (with its namespace) whose handler failed */
  consumer: string;
  event: EventEnvelope;
  topic: string;
  partition: number;
  offset: string;
  /** handler runs that failed, over every delivery and replay */
  attempts: number;
  /** the last failure's message */
  error: string;
  firstFailedAt: string;
  lastFailedAt: string;
}

export interface DeadLetterStore {
  /** Records a failed event (once per consumer and event: a later failure adds its attempts). */
  add(letter: Omit<DeadLetter, 'id' | 'firstFailedAt' | 'lastFailedAt'>): Promise<void>;
  get(id: string): Promise<DeadLetter | undefined>;
  /** A replay failed again: its attempts and error are added. */
  failedAgain(id: string, attempts: number, error: string): Promise<void>;
  remove(id: string): Promise<void>;
  /** Oldest first, after the id `after`, up to `limit + 1` letters, and how many there are. */
  page(after: string | undefined, limit: number): Promise<{ items: DeadLetter[]; count: number }>;
}
