import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so equal values always serialize (and hash) the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v as Record<string, unknown>).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/**
 * The address of an immutable content record: 128 bits of SHA-256 over its canonical JSON, base64url.
 * Equal records share one address, which is how revisions share what they did not change.
 */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('base64url').slice(0, 22);
}
