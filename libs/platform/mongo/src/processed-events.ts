import { ClientSession, Db, IndexDescription } from 'mongodb';
import { ApplyContext, PROCESSED_MARKER_RETENTION_MS, ProcessedEvents } from '@bindery/platform/events';
import { isDuplicateKey } from './mongo';
import { withTransaction } from './transactions';

export const PROCESSED_EVENTS = 'processed_events';

interface Marker {
  /** `<consumer>:<eventId>`: one marker per consumer group and event, by the primary key */
  _id: string;
  at: Date;
}

/** The markers expire (TTL on `at`) after longer than a topic keeps an event (see retention.ts in platform/events). */
export function processedEventsIndexes(retentionMs = PROCESSED_MARKER_RETENTION_MS): Record<string, IndexDescription[]> {
  return { [PROCESSED_EVENTS]: [{ key: { at: 1 }, name: 'expire_markers', expireAfterSeconds: Math.round(retentionMs / 1000) }] };
}

/** The MongoDB session a consumer hands its handlers (undefined outside a transaction: a handler opted out, or a direct call). */
export function sessionOf(context: ApplyContext | undefined): ClientSession | undefined {
  return context?.session as ClientSession | undefined;
}

export function mongoProcessedEvents(db: Db): ProcessedEvents {
  const col = db.collection<Marker>(PROCESSED_EVENTS);
  return {
    applyOnce(consumer, eventId, apply) {
      const _id = `${consumer}:${eventId}`;
      return withTransaction(db, async (session) => {
        // Read first: inside a transaction a duplicate-key error would abort it. Two deliveries
        // racing (a rebalance) both insert the same marker: one of them gets a write conflict, runs
        // again from here and finds the marker.
        if (await col.findOne({ _id }, { session, projection: { _id: 1 } })) return false;
        await col.insertOne({ _id, at: new Date() }, { session });
        await apply({ session });
        return true;
      });
    },
    applyManyOnce(consumer, eventIds, apply) {
      const ids = eventIds.map((id) => `${consumer}:${id}`);
      return withTransaction(db, async (session) => {
        // As applyOnce, for all of them: a redelivered batch finds its markers and applies nothing.
        const seen = new Set((await col.find({ _id: { $in: ids } }, { session, projection: { _id: 1 } }).toArray()).map((m) => m._id));
        const fresh = [...new Set(eventIds)].filter((id) => !seen.has(`${consumer}:${id}`));
        if (!fresh.length) return [];
        const at = new Date();
        await col.insertMany(
          fresh.map((id) => ({ _id: `${consumer}:${id}`, at })),
          { session },
        );
        await apply(new Set(fresh), { session });
        return fresh;
      });
    },
    async has(consumer, eventId) {
      return (await col.countDocuments({ _id: `${consumer}:${eventId}` }, { limit: 1 })) > 0;
    },
    async record(consumer, eventId) {
      try {
        await col.insertOne({ _id: `${consumer}:${eventId}`, at: new Date() });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },
  };
}
