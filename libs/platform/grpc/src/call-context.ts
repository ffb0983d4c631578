import { createHmac, timingSafeEqual } from 'node:crypto';
import { Metadata } from '@grpc/grpc-js';

/** Who is calling: set by the gateway from the authenticated token, carried in call metadata. */
export interface Caller {
  userId: string;
  isInstanceAdmin: boolean;
}

export interface CallContext {
  caller?: Caller;
  /** the client's key for a create or merge it may retry (see idempotencyKeyFromMetadata) */
  idempotencyKey?: string;
}

const USER = 'x-bindery-user-id';
const INSTANCE_ADMIN = 'x-bindery-instance-admin';
const SIGNATURE = 'x-bindery-caller-sig';

/**
 * With BINDERY_INTERNAL_SECRET set (the same value in every process), the caller in metadata is
 * signed by whoever authenticated it and verified by the service, so reaching a service's port is
 * not enough to act as someone. Without it the metadata is trusted (the network must be closed).
 */
function internalSecret(): string | undefined {
  return process.env.BINDERY_INTERNAL_SECRET || undefined;
}

// A caller's signature depends only on the secret and the caller: remembered for the callers seen
// last (an HMAC per call showed on the gateway's profile). Bounded, oldest forgotten first.
const signatures = new Map<string, Buffer>();
const SIGNATURES_KEPT = 10_000;

function signatureOf(secret: string, userId: string, isInstanceAdmin: boolean): Buffer {
  const key = `${secret}\n${userId}\n${isInstanceAdmin ? 1 : 0}`;
  let sig = signatures.get(key);
  if (!sig) {
    sig = createHmac('sha256', secret)
      .update(`${userId}\n${isInstanceAdmin ? 1 : 0}`)
      .digest();
    signatures.set(key, sig);
    if (signatures.size > SIGNATURES_KEPT) signatures.delete(signatures.keys().next().value as string);
  }
  return sig;
}

export function callerToMetadata(caller: Caller | undefined, metadata = new Metadata()): Metadata {
  if (caller) {
    metadata.set(USER, caller.userId);
    if (caller.isInstanceAdmin) metadata.set(INSTANCE_ADMIN, 'true');
    const secret = internalSecret();
    if (secret) metadata.set(SIGNATURE, signatureOf(secret, caller.userId, caller.isInstanceAdmin).toString('base64url'));
  }
  return metadata;
}

/** The caller the metadata names; none when it is missing or, with a secret, not signed with it. */
export function callerFromMetadata(metadata: Metadata): Caller | undefined {
  const [userId] = metadata.get(USER);
  if (typeof userId !== 'string' || !userId) return undefined;
  const isInstanceAdmin = metadata.get(INSTANCE_ADMIN)[0] === 'true';
  const secret = internalSecret();
  if (secret) {
    const [sent] = metadata.get(SIGNATURE);
    const expected = signatureOf(secret, userId, isInstanceAdmin);
    const given = typeof sent === 'string' ? Buffer.from(sent, 'base64url') : Buffer.alloc(0);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  }
  return { userId, isInstanceAdmin };
}

/**
 * A service acting on its own behalf (search reading the spaces it indexes): user id `service:<name>`,
 * which no user id can be (ids carry no colon), and instance admin. With BINDERY_INTERNAL_SECRET set
 * only a process holding the secret can sign it; the gateway never signs one for a token.
 */
export const INTERNAL_CALLER_PREFIX = 'service:';

export function internalCaller(service: string): Caller {
  return { userId: `${INTERNAL_CALLER_PREFIX}${service}`, isInstanceAdmin: true };
}

export function isInternalCaller(userId: string): boolean {
  return userId.startsWith(INTERNAL_CALLER_PREFIX);
}

export function callerSignatureRequired(): boolean {
  return internalSecret() !== undefined;
}

const IDEMPOTENCY_KEY = 'x-bindery-idempotency-key';

/**
 * An idempotency key: 1 to 255 printable ASCII characters without spaces, the `Idempotency-Key`
 * header's form (the gateway validates it; the server ignores a malformed one rather than trusting it).
 */
export const IDEMPOTENCY_KEY_PATTERN = '^[\\x21-\\x7E]{1,255}$';
const keyForm = new RegExp(IDEMPOTENCY_KEY_PATTERN);

export function idempotencyKeyToMetadata(key: string | undefined, metadata = new Metadata()): Metadata {
  if (key !== undefined) metadata.set(IDEMPOTENCY_KEY, key);
  return metadata;
}

export function idempotencyKeyFromMetadata(metadata: Metadata): string | undefined {
  const [key] = metadata.get(IDEMPOTENCY_KEY);
  return typeof key === 'string' && keyForm.test(key) ? key : undefined;
}
