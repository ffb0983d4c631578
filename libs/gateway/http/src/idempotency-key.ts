import { invalid } from '@bindery/platform/errors';
import { IDEMPOTENCY_KEY_PATTERN } from '@bindery/platform/grpc';

/**
 * The optional `Idempotency-Key` request header of the routes that create something or merge
 * (RouteSpec `idempotent`): a client that got no answer (a timeout, a 503) sends the request again
 * with the same key and gets the first attempt's answer instead of a second resource. Keys are
 * scoped to the caller and kept 24 h by the service; the same key with a different request is a 422.
 */
export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';

const form = new RegExp(IDEMPOTENCY_KEY_PATTERN);

/** The header as the served OpenAPI document declares it. */
export const IDEMPOTENCY_KEY_PARAMETER = {
  name: IDEMPOTENCY_KEY_HEADER,
  in: 'header',
  required: false,
  description:
    'Makes the request safe to retry: for 24 hours, a second request by the same caller with the same key and the same request answers what the first one answered (its status and body) instead of doing it again; the same key with a different request is refused (422); while the first request is still running, a second one waits for its answer until its own deadline, then answers 409. 1 to 255 visible ASCII characters, e.g. a UUID.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: IDEMPOTENCY_KEY_PATTERN },
};

/**
 * The refusals the routes that take the header declare: the key was used (within 24 h) with another
 * request; the first request with the key was still running when this one's budget ran out.
 */
export const IDEMPOTENCY_KEY_REFUSALS = [
  {
    status: 422,
    description: 'The Idempotency-Key was already used by this caller with a different request (another operation, path or body).',
  },
  {
    status: 409,
    description: 'The first request with this Idempotency-Key was still running when this one had to answer: send it again later for its answer.',
  },
];

/** The request's key: absent, or exactly one value of the header's form (anything else is a 400). */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header) || !form.test(header)) throw invalid(`${IDEMPOTENCY_KEY_HEADER} must be one value of 1 to 255 visible ASCII characters.`);
  return header;
}
