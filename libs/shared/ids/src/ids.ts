import { randomBytes } from 'node:crypto';

/** An opaque, URL-safe identifier of 20 characters (120 random bits). */
export function newId(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * An identifier that sorts by creation time (millisecond prefix, then randomness), for events whose
 * relay order must follow the order they were recorded in.
 */
export function newSortableId(now = Date.now()): string {
  return now.toString(36).padStart(9, '0') + randomBytes(9).toString('base64url');
}

/**
 * The prefixes of Bindery's secrets (API tokens, share-link keys, site tokens, webhook secrets): every secret starts
 * with one, so a scan of logs and events can find any that leaked (tools/checks/secret-scan.js).
 */
export const SECRET_PREFIXES = { apiToken: 'gb_api', shareKey: 'bshare', siteToken: 'bsite', webhookSecret: 'whsec', session: 'bsess' } as const;

/** A secret with 256 random bits, for API tokens and share-link keys. */
export function newSecret(prefix: string): string {
  return `${prefix}_${randomBytes(32).toString('base64url')}`;
}
