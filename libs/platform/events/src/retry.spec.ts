import { backoffAfter, withRetries } from './retry';

const policy = { attempts: 4, backoffMs: 100, maxBackoffMs: 300 };

describe('retries of a failing handler', () => {
  test('the pause doubles from the first failure and is capped', () => {
    expect([1, 2, 3, 4, 5].map((a) => backoffAfter(policy, a))).toEqual([100, 200, 300, 300, 300]);
  });

  test('stops at the first success, pausing and heartbeating between failures', async () => {
    const log: string[] = [];
    let calls = 0;
    const r = await withRetries(
      policy,
      async () => {
        calls += 1;
        if (calls < 3) throw new Error(`fail ${calls}`);
        return 'done';
      },
      { sleep: async (ms) => void log.push(`sleep ${ms}`), between: async () => void log.push('heartbeat') },
    );
    expect(r).toEqual({ ok: true, value: 'done', attempts: 3 });
    expect(log).toEqual(['sleep 100', 'heartbeat', 'sleep 200', 'heartbeat']);
  });

  test('answers the last error after the last attempt, with no pause after it', async () => {
    const pauses: number[] = [];
    let calls = 0;
    const r = await withRetries(
      policy,
      async () => {
        calls += 1;
        throw new Error(`fail ${calls}`);
      },
      { sleep: async (ms) => void pauses.push(ms) },
    );
    expect(r).toMatchObject({ ok: false, attempts: 4 });
    expect((r as { error: Error }).error.message).toBe('fail 4');
    expect(pauses).toEqual([100, 200, 300]);
  });

  test('a consumer stopping ends the tries by throwing (the event is delivered again, not dead-lettered)', async () => {
    let stopping = false;
    let calls = 0;
    const run = withRetries(
      policy,
      async () => {
        calls += 1;
        stopping = true;
        throw new Error('down');
      },
      { sleep: async () => undefined, giveUp: () => stopping },
    );
    await expect(run).rejects.toThrow('down');
    expect(calls).toBe(1);
  });
});
