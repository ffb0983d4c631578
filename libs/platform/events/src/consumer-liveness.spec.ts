import { ConsumerLiveness } from './consumer-liveness';

describe('ConsumerLiveness', () => {
  let now = 0;
  const live = () => new ConsumerLiveness(500, () => now);

  beforeEach(() => (now = 10_000));

  it('is not live before its first fetch', () => {
    expect(live().isLive()).toBe(false);
  });

  it('is live for the window after a fetch, then lapses', () => {
    const l = live();
    l.fetched();
    now += 500;
    expect(l.isLive()).toBe(true);
    now += 1;
    expect(l.isLive()).toBe(false);
    l.fetched();
    expect(l.isLive()).toBe(true);
  });

  it('is not live while a batch is applied or a partition is left behind', () => {
    const l = live();
    l.fetched();
    l.batchStarted('t', 1);
    expect(l.isLive()).toBe(false);
    l.batchEnded('t', 1, 2);
    expect(l.isLive()).toBe(false);
    l.batchStarted('t', 2);
    l.batchEnded('t', 2, 0);
    expect(l.isLive()).toBe(false);
    l.batchEnded('t', 1, 0);
    expect(l.isLive()).toBe(true);
  });

  it('loses its proof on a rebalance, a crash or a stop', () => {
    const l = live();
    l.fetched();
    l.batchEnded('t', 0, 5);
    l.lost();
    expect(l.isLive()).toBe(false);
    l.fetched();
    expect(l.isLive()).toBe(true);
  });
});
