import { DomainError, ErrorKind } from './domain-error';

/** gRPC status codes, by number, so that domain code need not import grpc. */
export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;

const TABLE: Record<ErrorKind, { grpc: number; http: number }> = {
  invalid: { grpc: GrpcCode.INVALID_ARGUMENT, http: 400 },
  unauthenticated: { grpc: GrpcCode.UNAUTHENTICATED, http: 401 },
  forbidden: { grpc: GrpcCode.PERMISSION_DENIED, http: 403 },
  not_found: { grpc: GrpcCode.NOT_FOUND, http: 404 },
  conflict: { grpc: GrpcCode.ALREADY_EXISTS, http: 409 },
  // a well-formed request the service will not act on as asked (an Idempotency-Key reused for another request)
  unprocessable: { grpc: GrpcCode.ABORTED, http: 422 },
  precondition: { grpc: GrpcCode.FAILED_PRECONDITION, http: 412 },
  rate_limited: { grpc: GrpcCode.RESOURCE_EXHAUSTED, http: 429 },
  unavailable: { grpc: GrpcCode.UNAVAILABLE, http: 503 },
  internal: { grpc: GrpcCode.INTERNAL, http: 500 },
};

export function grpcCodeOf(kind: ErrorKind): number {
  return TABLE[kind].grpc;
}

export function httpStatusOf(kind: ErrorKind): number {
  return TABLE[kind].http;
}

/**
 * The error a caller sees for a gRPC status received from another service. A service that does not
 * answer in time, or at all, is "unavailable" (503); statuses no service should send are internal.
 */
export function kindOfGrpcCode(code: number): ErrorKind {
  switch (code) {
    case GrpcCode.DEADLINE_EXCEEDED:
    case GrpcCode.UNAVAILABLE:
    case GrpcCode.CANCELLED:
      return 'unavailable';
    case GrpcCode.OUT_OF_RANGE:
      return 'invalid';
    default: {
      const found = (Object.keys(TABLE) as ErrorKind[]).find((k) => TABLE[k].grpc === code);
      return found ?? 'internal';
    }
  }
}

/** The error body every 4xx/5xx answer carries. */
export function errorBody(status: number, message: string) {
  return { error: { code: status, message } };
}

/** grpc's own refusal of a message over the chosen size limit (GRPC_MAX_*_MESSAGE_BYTES), which is no rate limit. */
const MESSAGE_TOO_LARGE = /message larger than max/i;

export function fromGrpcError(code: number, details: string): DomainError {
  // A client retrying later would get the same answer: a configuration limit, not a rate limit.
  if (code === GrpcCode.RESOURCE_EXHAUSTED && MESSAGE_TOO_LARGE.test(details)) return new DomainError('internal', 'An answer was larger than the gRPC message size limit.');
  const kind = kindOfGrpcCode(code);
  if (kind === 'unavailable') return new DomainError(kind, 'A service this request needs is unavailable; try again shortly.');
  if (kind === 'internal') return new DomainError(kind, 'Internal error.');
  return new DomainError(kind, details);
}
