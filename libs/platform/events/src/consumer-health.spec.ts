import { PartitionProgress } from './consumer-health';

const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setImmediate(r));
  return done;
};

describe('a consumer group member’s progress', () => {
  test('is not caught up before it joined, nor before its positions are known', () => {
    const p = new PartitionProgress();
    expect(p.caughtUp).toBe(false);
    p.assign({ t: [0, 1] });
    expect(p.joined).toBe(true);
    expect(p.caughtUp).toBe(false);
  });

  test('starts up once every assigned partition reached the end it had at the join, and tracks lag after', async () => {
    const p = new PartitionProgress();
    p.assign({ t: [0, 1] });
    p.measured([
      { topic: 't', partition: 0, position: 5, end: 5 },
      { topic: 't', partition: 1, position: 2, end: 10 },
    ]);
    expect(p.caughtUp).toBe(false);
    expect(await settled(p.startedUp)).toBe(false);
    p.batchDone('t', 1, 6, 12); // offsets 2..6 done; the partition grew to 12 meanwhile
    expect(await settled(p.startedUp)).toBe(false);
    p.batchDone('t', 1, 9, 12); // reached 10, the end at the join
    expect(await settled(p.startedUp)).toBe(true);
    expect(p.caughtUp).toBe(false); // still 2 behind the end seen last
    p.batchDone('t', 1, 11, 12);
    expect(p.caughtUp).toBe(true);
  });

  test('a member with no partitions starts up at once; a fetch proves liveness', async () => {
    const p = new PartitionProgress();
    p.assign({});
    p.measured([]);
    expect(await settled(p.startedUp)).toBe(true);
    expect(p.caughtUp).toBe(true);
    p.fetched(1234);
    expect(p.lastFetchAt).toBe(1234);
  });

  test('an empty partition (its earliest offset is its end) is caught up at the join', async () => {
    const p = new PartitionProgress();
    p.assign({ t: [0] });
    p.measured([{ topic: 't', partition: 0, position: 0, end: 0 }]);
    expect(await settled(p.startedUp)).toBe(true);
  });
});
