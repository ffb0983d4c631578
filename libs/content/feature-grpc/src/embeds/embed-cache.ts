import type { contentEmbedsV1 as pb } from '@bindery/shared/contracts';
import type { FetchedEmbed } from './fetch-embed';

/** How long a URL that answered nothing to preview is remembered, at most. */
export const FALLBACK_MS = 60_000;
/** The most URLs remembered by one replica (the oldest go first). */
export const EMBEDS_KEPT = 2_000;

interface Entry {
  embed: pb.Embed;
  until: number;
}

/**
 * Embeds by URL, in this replica's memory: an answer for `ttlMs` (a fallback for at most a minute),
 * at most EMBEDS_KEPT of them, and one fetch at a time per URL (concurrent askers share it). A failed
 * fetch (a refusal) is not remembered.
 */
export class EmbedCache {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<pb.Embed>>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  async get(key: string, fetch: () => Promise<FetchedEmbed>): Promise<pb.Embed> {
    const now = this.clock();
    const entry = this.entries.get(key);
    if (entry && entry.until > now) return entry.embed;
    if (entry) this.entries.delete(key);
    let pending = this.pending.get(key);
    if (!pending) {
      pending = fetch()
        .then(({ embed, answered }) => {
          const ttl = answered ? this.ttlMs : Math.min(this.ttlMs, FALLBACK_MS);
          if (ttl > 0) this.remember(key, { embed, until: this.clock() + ttl });
          return embed;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return pending;
  }

  private remember(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > EMBEDS_KEPT) this.entries.delete(this.entries.keys().next().value as string);
  }
}
