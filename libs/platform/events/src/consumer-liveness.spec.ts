import { ConsumerLiveness, EndOffsets } from './consumer-liveness';
import type { AppliedPosition } from './consumer-health';

// The proof's logic, with the broker's answers given by the test (consumer-proof.spec.ts asks the real broker).
describe('ConsumerLiveness', () => {
  let positions: AppliedPosition[];
  let ends: Array<{ topic: string; partition: number; end: number }>;
  let asked = 0;
  const broker: EndOffsets = async () => {
    asked++;
    return ends;
  };
  const attached = (endOffsets: EndOffsets = broker, cacheMs = 30) => {
    const l = new ConsumerLiveness({ boundMs: 150, cacheMs });
    l.attach({ applied: () => positions }, endOffsets);
    return l;
  };

  beforeEach(() => {
    asked = 0;
    positions = [
      { topic: 't', partition: 0, next: 5 },
      { topic: 't', partition: 1, next: 0 },
    ];
    ends = [
      { topic: 't', partition: 0, end: 5 },
      { topic: 't', partition: 1, end: 0 },
      { topic: 't', partition: 2, end: 9 },
    ];
  });

  it('is not proven before it is attached to a running consumer', async () => {
    expect(await new ConsumerLiveness().isCurrent()).toBe(false);
  });

  it('is current when every partition held is applied up to its end (partitions held by others do not count)', async () => {
    expect(await attached().isCurrent()).toBe(true);
  });

  it('is not current while a partition held has events left behind', async () => {
    ends[0].end = 6;
    expect(await attached().isCurrent()).toBe(false);
  });

  it('is not proven while a position is unknown, or when the member holds no partition', async () => {
    positions[1].next = undefined;
    expect(await attached().isCurrent()).toBe(false);
    positions = [];
    expect(await attached().isCurrent()).toBe(false);
  });

  it('shares one broker answer among concurrent askers and for the cache time', async () => {
    const l = attached(broker, 60_000);
    expect(await Promise.all([l.isCurrent(), l.isCurrent(), l.isCurrent()])).toEqual([true, true, true]);
    expect(await l.isCurrent()).toBe(true);
    expect(asked).toBe(1);
    const fresh = attached(broker, 0);
    await fresh.isCurrent();
    await fresh.isCurrent();
    expect(asked).toBe(3);
  });

  it('is not proven, within the bound, when the broker does not answer in time or fails', async () => {
    const silent = attached(() => new Promise(() => undefined));
    const t0 = Date.now();
    expect(await silent.isCurrent()).toBe(false);
    expect(Date.now() - t0).toBeLessThan(400);
    // Asked again while that request is still out (and past its bound): no at once.
    const t1 = Date.now();
    expect(await silent.isCurrent()).toBe(false);
    expect(Date.now() - t1).toBeLessThan(50);
    expect(await attached(() => Promise.reject(new Error('broker down'))).isCurrent()).toBe(false);
  });

  it('asks the broker again once an unanswered request is a second old', async () => {
    let now = 0;
    let calls = 0;
    const l = new ConsumerLiveness({ boundMs: 150, clock: () => now });
    l.attach({ applied: () => positions }, () => (++calls === 1 ? new Promise(() => undefined) : Promise.resolve(ends)));
    expect(await l.isCurrent()).toBe(false);
    now = 500;
    expect(await l.isCurrent()).toBe(false);
    expect(calls).toBe(1);
    now = 1001;
    expect(await l.isCurrent()).toBe(true);
    expect(calls).toBe(2);
  });
});
