import { invalid } from '@bindery/platform/errors';
import { IDEMPOTENCY_KEY_PATTERN } from '@bindery/platform/grpc';

/**
 * The optional `Idempotency-Key` request header of the routes that create something or merge
 * (RouteSpec `idempotent`): a client that got no answer (a timeout, a 503) sends the request again
 * with the same key and gets the resource the first attempt created instead of a second one. Keys
 * are scoped to the caller; the same key with a different request is a 409.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

const form = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The header as the served OpenAPI document declares it. */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes the request safe to retry: a second request by the same caller with the same key answers what the first one created (or merged) instead of doing it again. 1 to 255 visible ASCII characters, e.g. a UUID.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN },
};

/** The request's key: absent, or exactly one value of the header's form (anything else is a 400). */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header) || !form.test(header)) throw invalid(`${IDEMPOTENCY_KEY_HEADER} must be one value of 1 to 255 visible ASCII characters.`);
  return header;
}
