import { patchKafkaRequestQueue } from './kafkajs-request-queue';

interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
}

// The class kafkajs' connections queue their requests in, as corrected at load (kafka.ts).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require('kafkajs/src/network/requestQueue') as { prototype: { scheduleCheckPendingRequests(this: Queue): void } };

describe('kafkajs request queue (corrected)', () => {
  const queue = (pending: unknown[], throttledUntil = -1): Queue => ({ pending, throttledUntil, throttleCheckTimeoutId: null, checkPendingRequests: () => undefined });
  beforeAll(() => patchKafkaRequestQueue());

  it('arms no timer when nothing waits to be sent (an idle connection stays idle)', () => {
    const q = queue([]);
    RequestQueue.prototype.scheduleCheckPendingRequests.call(q);
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('checks again while requests wait: when the throttle ends, or shortly when too many are in flight', async () => {
    let checked = 0;
    const waiting = queue(['request']);
    waiting.checkPendingRequests = () => void checked++;
    RequestQueue.prototype.scheduleCheckPendingRequests.call(waiting);
    expect(waiting.throttleCheckTimeoutId).not.toBeNull();
    await new Promise<void>((resolve) => (waiting.checkPendingRequests = () => resolve()));
    expect(waiting.throttleCheckTimeoutId).toBeNull();
    const throttled = queue(['request'], Date.now() + 60_000);
    RequestQueue.prototype.scheduleCheckPendingRequests.call(throttled);
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();
    clearTimeout(throttled.throttleCheckTimeoutId!);
    expect(checked).toBe(0);
  });
});
