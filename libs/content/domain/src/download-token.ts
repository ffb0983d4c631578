import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Download tokens: the whole authorization of a file download. A token names one blob of one space
 * (with the name and type it is served under) until an expiry, and is signed with HMAC-SHA256 under
 * a secret every replica shares. Whoever read the file's record (and so was allowed to) got the
 * token; whoever holds it may download until it expires, without an API token — the way signed
 * object-store URLs work.
 *
 * Format: `<payload>.<signature>`, both base64url; the payload is JSON `[1, spaceId, blobId, name,
 * contentType, expiresAtMs]`. It is readable, not secret: it says nothing the file's record does not.
 */
export interface DownloadGrant {
  spaceId: string;
  blobId: string;
  /** the file's name, served in Content-Disposition */
  name: string;
  contentType: string;
  /** milliseconds since the epoch */
  expiresAt: number;
}

const VERSION = 1;
/** Longer tokens are refused before any work (a file name is at most a few hundred characters). */
const MAX_TOKEN_LENGTH = 4096;
const BASE64URL = /^[A-Za-z0-9_-]+$/;
export const MIN_DOWNLOAD_SECRET_LENGTH = 32;

export class DownloadTokens {
  private readonly key: Buffer;

  /**
   * `ttlMs`: how long a token stays valid. Expiries are rounded up to a step of a tenth of it (at
   * most 5 minutes), so reading a file twice in a row gives the same URL and browsers can cache it.
   */
  constructor(
    secret: string,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {
    if (secret.length < MIN_DOWNLOAD_SECRET_LENGTH) throw new Error(`the download secret must have at least ${MIN_DOWNLOAD_SECRET_LENGTH} characters`);
    if (!(ttlMs >= 1000)) throw new Error('the download token lifetime must be at least 1000 ms');
    // A key of its own, so the secret could serve another purpose without the two ever colliding.
    this.key = createHmac('sha256', secret).update('bindery.content.download-token.v1').digest();
  }

  sign(file: Omit<DownloadGrant, 'expiresAt'>): string {
    const step = Math.max(1, Math.min(Math.floor(this.ttlMs / 10), 300_000));
    const expiresAt = Math.ceil((this.clock() + this.ttlMs) / step) * step;
    const payload = Buffer.from(JSON.stringify([VERSION, file.spaceId, file.blobId, file.name, file.contentType, expiresAt])).toString('base64url');
    return `${payload}.${this.signatureOf(payload).toString('base64url')}`;
  }

  /**
   * The grant a token carries; undefined when it is malformed, not signed with this secret, or
   * expired. The three are not told apart: whoever holds a bad token learns nothing from the answer.
   */
  verify(token: unknown): DownloadGrant | undefined {
    if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return undefined;
    const parts = token.split('.');
    if (parts.length !== 2) return undefined;
    const [payload, signature] = parts as [string, string];
    if (!BASE64URL.test(payload) || !BASE64URL.test(signature)) return undefined;
    const expected = this.signatureOf(payload);
    const given = Buffer.from(signature, 'base64url');
    // Compared in constant time, and only then read: nothing of an unsigned payload is ever used.
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const grant = decode(payload);
    if (!grant || grant.expiresAt <= this.clock()) return undefined;
    return grant;
  }

  private signatureOf(payload: string): Buffer {
    return createHmac('sha256', this.key).update(payload).digest();
  }
}

function decode(payload: string): DownloadGrant | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 6 || value[0] !== VERSION) return undefined;
  const [, spaceId, blobId, name, contentType, expiresAt] = value as unknown[];
  if (typeof spaceId !== 'string' || typeof blobId !== 'string' || typeof name !== 'string' || typeof contentType !== 'string' || typeof expiresAt !== 'number') return undefined;
  if (!spaceId || !blobId || !Number.isSafeInteger(expiresAt)) return undefined;
  return { spaceId, blobId, name, contentType, expiresAt };
}
