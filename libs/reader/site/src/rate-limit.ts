/**
 * A token bucket per client: `burst` requests at once, refilled at `perMinute`. Buckets are kept for
 * at most `maxClients` clients (the least recently seen forgotten first: a forgotten client starts
 * with a full bucket again).
 */
export interface RateLimitOptions {
  /** requests a client may make in a burst (the bucket's size) */
  burst: number;
  /** tokens added per minute */
  perMinute: number;
  maxClients?: number;
  clock?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly clock: () => number;
  private readonly maxClients: number;

  constructor(private readonly options: RateLimitOptions) {
    this.clock = options.clock ?? Date.now;
    this.maxClients = options.maxClients ?? 10_000;
  }

  /** Takes one token for `client`: 0 when granted, else the seconds until one is there (Retry-After). */
  take(client: string): number {
    const now = this.clock();
    const { burst, perMinute } = this.options;
    const previous = this.buckets.get(client);
    const refilled = previous ? Math.min(burst, previous.tokens + ((now - previous.at) * perMinute) / 60_000) : burst;
    this.buckets.delete(client);
    if (refilled >= 1) {
      this.remember(client, { tokens: refilled - 1, at: now });
      return 0;
    }
    this.remember(client, { tokens: refilled, at: now });
    return perMinute > 0 ? Math.max(1, Math.ceil(((1 - refilled) * 60) / perMinute)) : 60;
  }

  private remember(client: string, bucket: Bucket): void {
    this.buckets.set(client, bucket);
    if (this.buckets.size > this.maxClients) this.buckets.delete(this.buckets.keys().next().value as string);
  }
}

/**
 * The client's address: the connection's peer, or — behind a proxy that sets it, named in
 * `header` — the last address that header carries (the one the nearest proxy added).
 */
export function clientAddressOf(req: { headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } }, header?: string): string {
  if (header) {
    const raw = req.headers[header.toLowerCase()];
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    const last = value
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean)
      .pop();
    if (last) return last;
  }
  return req.socket.remoteAddress ?? 'unknown';
}
