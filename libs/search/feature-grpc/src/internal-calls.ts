import { isDomainError } from '@bindery/platform/errors';
export { internalCaller } from '@bindery/platform/grpc';

export function isDomainErrorOf(err: unknown, kind: string): boolean {
  return isDomainError(err) && err.kind === kind;
}
