import { ChangeStream, Db } from 'mongodb';
import { logger } from '@bindery/platform/telemetry';

export interface ChangeFeed {
  /** True while the stream is open: what it reports is complete from that moment on. */
  readonly live: boolean;
  /** Resolves once the stream is live (at once while it is). */
  whenLive(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Tells `onChange` the collection and `_id` of every document inserted, updated, replaced or deleted
 * in `collections` of `db`, by any process (a MongoDB change stream; needs a replica set). When the
 * stream breaks, `onGap` is called — whatever the listener derived from earlier changes may now be
 * stale — and the stream is opened again after `retryMs`.
 */
export function watchChanges(db: Db, collections: string[], onChange: (collection: string, id: unknown) => void, onGap: () => void, retryMs = 1000): ChangeFeed {
  let stream: ChangeStream | undefined;
  let closed = false;
  let live = false;
  let timer: NodeJS.Timeout | undefined;
  let waiting: Array<() => void> = [];

  const open = () => {
    if (closed) return;
    const s = db.watch([
      { $match: { 'ns.coll': { $in: collections }, operationType: { $in: ['insert', 'update', 'replace', 'delete'] } } },
      { $project: { ns: 1, documentKey: 1 } },
    ]);
    stream = s;
    s.on('change', (change: { ns?: { coll?: string }; documentKey?: { _id?: unknown } }) => {
      if (change.ns?.coll && change.documentKey) onChange(change.ns.coll, change.documentKey._id);
    });
    // The first resume token arrives with the stream's opening reply: from then on nothing is missed.
    s.on('resumeTokenChanged', () => {
      live = true;
      waiting.forEach((resolve) => resolve());
      waiting = [];
    });
    s.once('error', (err) => {
      live = false;
      onGap();
      if (!closed) logger.warn('change stream broke; reopening', { error: err instanceof Error ? err.message : String(err) });
      void s.close().catch(() => undefined);
      if (!closed) timer = setTimeout(open, retryMs);
    });
  };
  open();

  return {
    get live() {
      return live;
    },
    whenLive() {
      return live ? Promise.resolve() : new Promise((resolve) => waiting.push(resolve));
    },
    async close() {
      closed = true;
      live = false;
      clearTimeout(timer);
      await stream?.close().catch(() => undefined);
    },
  };
}
