import { DomainError } from './domain-error';
import { errorBody, fromGrpcError, GrpcCode, grpcCodeOf, httpStatusOf, kindOfGrpcCode } from './status-mapping';

describe('status mapping', () => {
  it.each([
    ['invalid', GrpcCode.INVALID_ARGUMENT, 400],
    ['unauthenticated', GrpcCode.UNAUTHENTICATED, 401],
    ['forbidden', GrpcCode.PERMISSION_DENIED, 403],
    ['not_found', GrpcCode.NOT_FOUND, 404],
    ['conflict', GrpcCode.ALREADY_EXISTS, 409],
    ['unprocessable', GrpcCode.ABORTED, 422],
    ['precondition', GrpcCode.FAILED_PRECONDITION, 412],
    ['rate_limited', GrpcCode.RESOURCE_EXHAUSTED, 429],
    ['unavailable', GrpcCode.UNAVAILABLE, 503],
    ['internal', GrpcCode.INTERNAL, 500],
  ] as const)('%s ⇄ gRPC %d ⇄ HTTP %d', (kind, grpc, http) => {
    expect(grpcCodeOf(kind)).toBe(grpc);
    expect(httpStatusOf(kind)).toBe(http);
    expect(kindOfGrpcCode(grpc)).toBe(kind);
  });

  it('treats a deadline or a missing service as unavailable, and hides its details', () => {
    expect(kindOfGrpcCode(GrpcCode.DEADLINE_EXCEEDED)).toBe('unavailable');
    const err = fromGrpcError(GrpcCode.UNAVAILABLE, 'connect ECONNREFUSED 10.0.0.7:50051');
    expect(err.kind).toBe('unavailable');
    expect(err.message).not.toContain('10.0.0.7');
  });

  it('never passes internal details through', () => {
    expect(fromGrpcError(GrpcCode.UNKNOWN, 'TypeError at x.ts:12').message).toBe('Internal error.');
  });

  it('keeps the message of a domain failure', () => {
    const err = fromGrpcError(GrpcCode.NOT_FOUND, 'Organization not found.');
    expect(err).toBeInstanceOf(DomainError);
    expect(err.message).toBe('Organization not found.');
  });

  it('shapes the error body', () => {
    expect(errorBody(404, 'x')).toEqual({ error: { code: 404, message: 'x' } });
  });
});
