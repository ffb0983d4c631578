import { Db } from 'mongodb';
import { watchCollections } from './change-feed';
import type { OutboxStore, EventEnvelope } from '@bindery/platform/events';

/** The outbox relay's view of a service's collections that carry `outbox` fields. */
export function mongoOutboxStore(db: Db, collections: string[]): OutboxStore {
  return {
    async pending(limit) {
      const out: Array<{ collection: string; docId: string; events: EventEnvelope[] }> = [];
      for (const name of collections) {
        const docs = await db
          .collection<{ _id: string; outbox?: Record<string, EventEnvelope> }>(name)
          .find({ outboxCount: { $gt: 0 } }, { projection: { outbox: 1 } })
          .limit(limit)
          .toArray();
        for (const doc of docs) {
          const events = Object.values(doc.outbox ?? {}).sort((a, b) => a.id.localeCompare(b.id));
          if (events.length) out.push({ collection: name, docId: doc._id, events });
        }
      }
      return out;
    },
    async markPublished(collection, docId, eventId) {
      // Conditional on the entry still being there, so a repeated mark never drives the count negative.
      await db
        .collection<{ _id: string }>(collection)
        .updateOne({ _id: docId, [`outbox.${eventId}`]: { $exists: true } }, { $unset: { [`outbox.${eventId}`]: '' }, $inc: { outboxCount: -1 } });
    },
    // A service without outbox collections has nothing to watch (and opens no stream).
    watch: collections.length ? watchPending : undefined,
  };

  function watchPending({ onPending, onGap, onLive }: { onPending(): void; onGap(): void; onLive(): void }) {
    // Writes that leave events pending: a document inserted or replaced with some, an update that
    // raised the count (the relay's own marks lower it, and down to 0 they wake nobody).
    return watchCollections(db, {
      collections,
      match: {
        $or: [
          { operationType: { $in: ['insert', 'replace'] }, 'fullDocument.outboxCount': { $gt: 0 } },
          { operationType: 'update', 'updateDescription.updatedFields.outboxCount': { $gt: 0 } },
        ],
      },
      onChange: onPending,
      onGap,
      onLive,
    });
  }
}
