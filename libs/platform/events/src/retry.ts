/** How a consumer retries a failing handler before it dead-letters the event. */
export interface RetryPolicy {
  /** handler runs per delivery, the first included (≥ 1) */
  attempts: number;
  /** pause after the first failure; it doubles after each further one */
  backoffMs: number;
  /** the longest pause */
  maxBackoffMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, backoffMs: 100, maxBackoffMs: 2000 };

/** The pause after failed attempt `attempt` (1-based): backoff · 2^(attempt-1), capped. */
export function backoffAfter(policy: RetryPolicy, attempt: number): number {
  return Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** Math.max(0, attempt - 1));
}

/** A failure's message for a person reading dead letters (the stack stays in the logs). */
export function errorText(err: unknown): string {
  return (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 2000);
}

export type Attempted<T> = { ok: true; value: T; attempts: number } | { ok: false; error: unknown; attempts: number };

/**
 * Runs `work` up to `policy.attempts` times, pausing with `sleep` between failures and calling
 * `between` after each pause (the consumer heartbeats there, so a slow retry keeps its partitions).
 * `giveUp` ends the tries early (the consumer is stopping): the last error is thrown, not answered.
 */
export async function withRetries<T>(
  policy: RetryPolicy,
  work: () => Promise<T>,
  hooks: { sleep?: (ms: number) => Promise<void>; between?: () => Promise<void>; giveUp?: () => boolean } = {},
): Promise<Attempted<T>> {
  const sleep = hooks.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  for (let attempt = 1; ; attempt++) {
    try {
      return { ok: true, value: await work(), attempts: attempt };
    } catch (error) {
      if (attempt >= policy.attempts) return { ok: false, error, attempts: attempt };
      if (hooks.giveUp?.()) throw error;
      await sleep(backoffAfter(policy, attempt));
      if (hooks.giveUp?.()) throw error;
      await hooks.between?.();
    }
  }
}
