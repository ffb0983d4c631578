import { ChangeStream, Db, Document } from 'mongodb';
import { logger } from '@bindery/platform/telemetry';

export interface ChangeFeed {
  /** True while the stream is open: what it reports is complete from that moment on. */
  readonly live: boolean;
  /** Resolves once the stream is live (at once while it is). */
  whenLive(): Promise<void>;
  close(): Promise<void>;
}

/**
 * How long an idle stream's getMore waits on the server for a change before answering empty. The
 * server's default is 1 s (a query a second per idle stream); changes are delivered as they happen
 * whatever the wait, so a long wait only makes an idle stream cheap. A close does not wait for it.
 */
export const CHANGE_STREAM_AWAIT_MS = 30_000;

/** What a change stream over some collections reports, and to whom. */
export interface ChangeWatch {
  collections: string[];
  /** narrows the changes further (a `$match` on the change event, combined with the collections) */
  match?: Document;
  /** the fields of the change event to deliver (`ns` and `documentKey` always) */
  project?: Document;
  onChange(change: Document): void;
  /** the stream broke: what was derived from earlier changes may be stale, and changes are being missed */
  onGap?(): void;
  /** the stream is open (again): every change from now on is reported */
  onLive?(): void;
  /** the pause before reopening a broken stream (default 1 s) */
  retryMs?: number;
  /** the server-side wait of an idle stream's getMore (default CHANGE_STREAM_AWAIT_MS) */
  maxAwaitTimeMS?: number;
}

/**
 * A MongoDB change stream (needs a replica set) over `collections` of `db`, reporting the changes of
 * every process. When it breaks, `onGap` is called and it is opened again after `retryMs`; `onLive`
 * is called each time it is open (at first, and after each reopening).
 */
export function watchCollections(db: Db, watch: ChangeWatch): ChangeFeed {
  let stream: ChangeStream | undefined;
  let closed = false;
  let live = false;
  let timer: NodeJS.Timeout | undefined;
  let waiting: Array<() => void> = [];

  const open = () => {
    if (closed) return;
    const s = db.watch([{ $match: { 'ns.coll': { $in: watch.collections }, ...(watch.match ?? {}) } }, { $project: { ns: 1, documentKey: 1, ...(watch.project ?? {}) } }], {
      maxAwaitTimeMS: watch.maxAwaitTimeMS ?? CHANGE_STREAM_AWAIT_MS,
    });
    stream = s;
    s.on('change', (change: Document) => watch.onChange(change));
    // The first resume token arrives with the stream's opening reply: from then on nothing is missed.
    s.on('resumeTokenChanged', () => {
      if (live) return;
      live = true;
      waiting.forEach((resolve) => resolve());
      waiting = [];
      watch.onLive?.();
    });
    s.once('error', (err) => {
      live = false;
      watch.onGap?.();
      if (!closed) logger.warn('change stream broke; reopening', { error: err instanceof Error ? err.message : String(err) });
      void s.close().catch(() => undefined);
      if (!closed) timer = setTimeout(open, watch.retryMs ?? 1000);
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

/**
 * Tells `onChange` the collection and `_id` of every document inserted, updated, replaced or deleted
 * in `collections` of `db`, by any process. When the stream breaks, `onGap` is called — whatever the
 * listener derived from earlier changes may now be stale — and the stream is opened again after `retryMs`.
 */
export function watchChanges(db: Db, collections: string[], onChange: (collection: string, id: unknown) => void, onGap: () => void, retryMs = 1000): ChangeFeed {
  return watchCollections(db, {
    collections,
    match: { operationType: { $in: ['insert', 'update', 'replace', 'delete'] } },
    onChange: (change: { ns?: { coll?: string }; documentKey?: { _id?: unknown } }) => {
      if (change.ns?.coll && change.documentKey) onChange(change.ns.coll, change.documentKey._id);
    },
    onGap,
    retryMs,
  });
}
