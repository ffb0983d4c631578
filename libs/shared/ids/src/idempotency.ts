import { createHash } from 'node:crypto';

/**
 * What a resource created with an idempotency key records in the same write that creates it: who
 * sent the key, the key, and a digest of the request. A retry by the same caller with the same key
 * finds the resource instead of creating another; the same key with a different request is refused.
 */
export interface IdempotencyMark {
  by: string;
  key: string;
  request: string;
}

/** The mark of a request; none without a key. `request` is what identifies the request (its message). */
export function idempotencyMark(by: string, key: string | undefined, request: unknown): IdempotencyMark | undefined {
  if (!key) return undefined;
  return { by, key, request: createHash('sha256').update(JSON.stringify(request)).digest('base64url') };
}
