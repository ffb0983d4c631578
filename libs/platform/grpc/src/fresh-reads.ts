import { AsyncLocalStorage } from 'node:async_hooks';
import { Metadata } from '@grpc/grpc-js';
import { isDomainError } from '@bindery/platform/errors';

/**
 * What a service acknowledged must hold on the caller's next request in every other service. Other
 * services keep copies of what they do not own (identity's members in a projection fed by events,
 * a cache kept by a change stream); such a copy may trail its source by the time an event takes to
 * arrive. A "yes" from a copy that is known to be current is good enough; a "no" (404, 403) may be
 * the copy's lag, so before a call answers with one it runs again with fresh reads: every copy asks
 * its source instead, and calls it makes to other services ask them to do the same.
 *
 * A call runs in a scope that says whether fresh reads are required and whether a trailing copy
 * was consulted; only a call that consulted one is run again.
 */
interface FreshnessScope {
  fresh: boolean;
  trailing: boolean;
}

const scope = new AsyncLocalStorage<FreshnessScope>();

/** gRPC metadata asking the callee to read fresh (a denial is being confirmed upstream). */
export const FRESH_READS_METADATA = 'x-bindery-fresh-reads';

/** Whether the current call must read from the sources, not from copies that may trail them. */
export function freshReadsRequired(): boolean {
  return scope.getStore()?.fresh ?? false;
}

/** Records that a decision of the current call rests on a copy that may trail its source. */
export function noteTrailingRead(): void {
  const s = scope.getStore();
  if (s && !s.fresh) s.trailing = true;
}

/** Carries the current call's demand for fresh reads to the service it calls. */
export function freshReadsToMetadata(metadata: Metadata): void {
  if (freshReadsRequired()) metadata.set(FRESH_READS_METADATA, '1');
}

export function freshReadsFromMetadata(metadata: Metadata): boolean {
  return metadata.get(FRESH_READS_METADATA)[0] === '1';
}

const isDenial = (err: unknown) => isDomainError(err) && (err.kind === 'not_found' || err.kind === 'forbidden');

/**
 * Runs one call's work; if it ends in a denial that rests on a trailing copy, runs it once more
 * with fresh reads and answers that. Use cases check before they write, so a denied first run has
 * changed nothing.
 */
export async function confirmingDenials<T>(fresh: boolean, work: () => Promise<T>): Promise<T> {
  const first: FreshnessScope = { fresh, trailing: false };
  try {
    return await scope.run(first, work);
  } catch (err) {
    if (first.fresh || !first.trailing || !isDenial(err)) throw err;
    return scope.run({ fresh: true, trailing: false }, work);
  }
}

/** Runs work with fresh reads required (tests, and work that must not trust copies). */
export function withFreshReads<T>(work: () => Promise<T>): Promise<T> {
  return scope.run({ fresh: true, trailing: false }, work);
}
