/**
 * kafkajs 2.2.4 keeps every connection busy while idle: after a request its queue re-arms a timer
 * that fires at once (1 ms) and re-arms itself, forever, whether anything waits or not (upstream
 * issues tulios/kafkajs#1556 and #1704, unreleased). With a dozen connections per service that is
 * thousands of wake-ups a second and about 0.6 % of a core per consumer. Corrected here: the queue
 * checks again only while requests wait to be sent — after the client-side throttle ends, or every
 * 10 ms while too many are in flight (a response also sends the next one, as before).
 */
interface QueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

const RECHECK_MS = 10;
const PATCHED = Symbol.for('bindery.kafkajs.requestQueue.patched');

export function patchKafkaRequestQueue(): void {
  // A deep import of the class kafkajs' connections use (same module instance: same resolved path).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: QueueInternals & { [PATCHED]?: boolean } };
  const proto = RequestQueue.prototype;
  if (proto[PATCHED] || typeof proto.scheduleCheckPendingRequests !== 'function') return;
  proto.scheduleCheckPendingRequests = function (this: QueueInternals) {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    const throttledFor = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttledFor > 0 ? throttledFor : RECHECK_MS,
    );
  };
  proto[PATCHED] = true;
}
