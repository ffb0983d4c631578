/**
 * The kinds of failure a use case can report. Each maps to one gRPC status and one HTTP status
 * (status-mapping.ts); nothing else in the system chooses a status.
 */
export type ErrorKind = 'invalid' | 'unauthenticated' | 'forbidden' | 'not_found' | 'conflict' | 'unprocessable' | 'precondition' | 'rate_limited' | 'unavailable' | 'internal';

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const invalid = (message: string) => new DomainError('invalid', message);
export const unauthenticated = (message = 'A valid API token is required.') => new DomainError('unauthenticated', message);
export const forbidden = (message: string) => new DomainError('forbidden', message);
export const notFound = (what: string) => new DomainError('not_found', `${what} not found.`);
export const conflict = (message: string) => new DomainError('conflict', message);
export const unprocessable = (message: string) => new DomainError('unprocessable', message);
export const precondition = (message: string) => new DomainError('precondition', message);
export const unavailable = (message: string) => new DomainError('unavailable', message);

export function isDomainError(err: unknown): err is DomainError {
  return err instanceof DomainError;
}
