import { MergeQueueFullError, SpaceMergeQueue } from './space-merge-queue';

describe('SpaceMergeQueue', () => {
  const gate = () => {
    let open!: () => void;
    const opened = new Promise<void>((r) => (open = r));
    return { open, opened };
  };

  it('runs the merges of one space one at a time, in arrival order; other spaces do not wait', async () => {
    const queue = new SpaceMergeQueue({ reserveMs: { min: 0, max: 0 }, maxWaitMs: 60000 });
    const order: string[] = [];
    const first = gate();
    const a = queue.run('s', undefined, async (waited) => {
      order.push(`a ${waited}`);
      await first.opened;
    });
    const b = queue.run('s', undefined, async (waited) => void order.push(`b ${waited}`));
    const c = queue.run('s', undefined, async (waited) => void order.push(`c ${waited}`));
    await queue.run('other', undefined, async (waited) => void order.push(`other ${waited}`));
    expect(queue.depth('s')).toBe(3);
    first.open();
    await Promise.all([a, b, c]);
    expect(order).toEqual(['a false', 'other false', 'b true', 'c true']);
    expect(queue.depth('s')).toBe(0);
  });

  it('refuses a merge that cannot start before its deadline less the reserve, and the next one still runs', async () => {
    const queue = new SpaceMergeQueue({ reserveMs: { min: 50, max: 50 }, maxWaitMs: 60000 });
    const first = gate();
    const a = queue.run('s', undefined, () => first.opened);
    const late = queue.run('s', Date.now() + 80, async () => 'ran');
    const atOnce = queue.run('s', Date.now() + 10, async () => 'ran');
    await expect(atOnce).rejects.toBeInstanceOf(MergeQueueFullError);
    const refused = await late.catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(MergeQueueFullError);
    expect((refused as MergeQueueFullError).kind).toBe('rate_limited');
    expect((refused as MergeQueueFullError).retryAfterSeconds).toBeGreaterThanOrEqual(1);
    const after = queue.run('s', undefined, async () => 'ran');
    first.open();
    await a;
    await expect(after).resolves.toBe('ran');
  });
});
