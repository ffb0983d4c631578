import { Db, IndexDescription } from 'mongodb';
import type { DeadLetter, DeadLetterStore } from '@bindery/platform/events';
import { newSortableId, nowIso } from '@bindery/shared/ids';

export const DEAD_LETTERS = 'dead_letters';

type DeadLetterDoc = Omit<DeadLetter, 'id'> & { _id: string; eventId: string };

/** One dead letter per consumer group and event; pages walk `_id` (sortable ids: oldest first). */
export const DEAD_LETTER_INDEXES: Record<string, IndexDescription[]> = {
  [DEAD_LETTERS]: [{ key: { consumer: 1, eventId: 1 }, name: 'one_per_consumer_event', unique: true }],
};

const toLetter = ({ _id, eventId: _e, ...rest }: DeadLetterDoc): DeadLetter => ({ id: _id, ...rest });

/** The events a service's consumers gave up on, in the service's own database. */
export function mongoDeadLetters(db: Db): DeadLetterStore {
  const col = db.collection<DeadLetterDoc>(DEAD_LETTERS);
  return {
    async add(letter) {
      const now = nowIso();
      const { attempts, ...fields } = letter;
      // An upsert on the unique (consumer, event): a redelivered poison event adds to its letter.
      await col.updateOne(
        { consumer: letter.consumer, eventId: letter.event.id },
        { $set: { ...fields, lastFailedAt: now }, $inc: { attempts }, $setOnInsert: { _id: newSortableId(), firstFailedAt: now } },
        { upsert: true },
      );
    },
    async get(id) {
      const doc = await col.findOne({ _id: id });
      return doc ? toLetter(doc) : undefined;
    },
    async failedAgain(id, attempts, error) {
      await col.updateOne({ _id: id }, { $set: { error, lastFailedAt: nowIso() }, $inc: { attempts } });
    },
    async remove(id) {
      await col.deleteOne({ _id: id });
    },
    async page(after, limit) {
      const [docs, count] = await Promise.all([
        col
          .find(after ? { _id: { $gt: after } } : {})
          .sort({ _id: 1 })
          .limit(limit + 1)
          .toArray(),
        col.countDocuments(),
      ]);
      return { items: docs.map(toLetter), count };
    },
  };
}
