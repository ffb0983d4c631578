import { ConsumerLiveness } from './consumer-liveness';

describe('ConsumerLiveness', () => {
  let now = 0;
  const health = { lastFetchAt: 0, caughtUp: true };
  const attached = () => {
    const l = new ConsumerLiveness(500, () => now);
    l.attach(health);
    return l;
  };

  beforeEach(() => {
    now = 10_000;
    health.lastFetchAt = now;
    health.caughtUp = true;
  });

  it('is not live before it is attached to a running consumer', () => {
    expect(new ConsumerLiveness(500, () => now).isLive()).toBe(false);
  });

  it('is live for the window after a fetch, then lapses', () => {
    const l = attached();
    now += 500;
    expect(l.isLive()).toBe(true);
    now += 1;
    expect(l.isLive()).toBe(false);
    health.lastFetchAt = now;
    expect(l.isLive()).toBe(true);
  });

  it('is not live while a partition has events left behind', () => {
    const l = attached();
    health.caughtUp = false;
    expect(l.isLive()).toBe(false);
    health.caughtUp = true;
    expect(l.isLive()).toBe(true);
  });
});
