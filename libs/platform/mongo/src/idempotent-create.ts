import { DomainError } from '@bindery/platform/errors';
import type { IdempotencyMark } from '@bindery/shared/ids';
import { isDuplicateKey } from './mongo';

/**
 * The unique index that makes a create with an idempotency key happen once: one resource per
 * (scope, caller, key), whichever replica the two attempts reached. `scope` is the field that holds
 * the tenant (organizationId, spaceId).
 */
export function idempotencyIndex(scope: string) {
  return {
    key: { [scope]: 1, 'idempotency.by': 1, 'idempotency.key': 1 },
    name: 'idempotency_key',
    unique: true,
    partialFilterExpression: { 'idempotency.key': { $exists: true } },
  };
}

/** The filter of the resource a mark created, within its scope. */
export function createdWith(mark: IdempotencyMark) {
  return { 'idempotency.by': mark.by, 'idempotency.key': mark.key };
}

function sameRequest(found: { idempotency?: IdempotencyMark }, mark: IdempotencyMark): void {
  if (found.idempotency?.request !== mark.request) throw new DomainError('conflict', 'This Idempotency-Key was already used with a different request.');
}

/**
 * Creates a resource at most once per idempotency mark: without a mark `create` runs; with one the
 * resource an earlier attempt created is answered (`answer`), and an attempt that loses a race to
 * another with the same key (the unique index of `idempotencyIndex`) answers the winner's resource.
 * `create` must write the mark into the resource, in the write that creates it.
 */
export async function createOnce<T extends { idempotency?: IdempotencyMark }, R>(
  mark: IdempotencyMark | undefined,
  steps: { find(): Promise<T | null>; create(): Promise<R>; answer(found: T): Promise<R> },
): Promise<R> {
  if (!mark) return steps.create();
  const earlier = await steps.find();
  if (earlier) {
    sameRequest(earlier, mark);
    return steps.answer(earlier);
  }
  try {
    return await steps.create();
  } catch (err) {
    if (!isDuplicateKey(err)) throw err;
    const winner = await steps.find();
    if (!winner) throw err;
    sameRequest(winner, mark);
    return steps.answer(winner);
  }
}
