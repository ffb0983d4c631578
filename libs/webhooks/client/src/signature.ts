import { createHmac, timingSafeEqual } from 'node:crypto';
import { newSecret, SECRET_PREFIXES } from '@bindery/shared/ids';

/** A webhook's signing secret (`whsec_…`, 256 random bits; the secret scan knows the prefix). */
export function newWebhookSecret(): string {
  return newSecret(SECRET_PREFIXES.webhookSecret);
}

function hmac(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/**
 * The `X-Bindery-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" keyed by the secret>`
 * (the same recipe as Stripe's). The receiver recomputes it over the raw body and compares in constant
 * time, and refuses a `t` too far from its clock (replays).
 */
export function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

/** The receiver's check (documented recipe; the tests' receiver uses it): true when a v1 signature matches and `t` is within `toleranceS`. */
export function verifySignature(secret: string, header: string, body: string, nowS: number, toleranceS = 300): boolean {
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowS - t) > toleranceS) return false;
  const expected = Buffer.from(hmac(secret, t, body), 'hex');
  return parts
    .filter(([k]) => k === 'v1')
    .some(([, v]) => {
      const given = Buffer.from(v ?? '', 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
