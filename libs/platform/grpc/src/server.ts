import { sendUnaryData, Server, ServerCredentials, ServerUnaryCall, ServiceDefinition, status, UntypedServiceImplementation } from '@grpc/grpc-js';
import { grpcCodeOf, isDomainError } from '@bindery/platform/errors';
import { logger, traceServerCall } from '@bindery/platform/telemetry';
import { CallContext, callerFromMetadata, idempotencyKeyFromMetadata } from './call-context';
import { budgetSpent, withCallBudget } from './call-budget';
import { messageLimitOptions } from './message-limits';
import { confirmingDenials, freshReadsFromMetadata } from './fresh-reads';

const codeOf = (err: unknown) => (isDomainError(err) ? grpcCodeOf(err.kind) : status.INTERNAL);

function toServiceError(method: string, err: unknown) {
  if (isDomainError(err)) return { code: codeOf(err), details: err.message };
  // Anything else is a bug: log it here, once, and tell the caller nothing about it.
  logger.error('unhandled error in gRPC handler', { method, error: err instanceof Error ? err.stack : String(err) });
  return { code: status.INTERNAL, details: 'Internal error.' };
}

/** The incoming call's deadline in ms since the epoch (Infinity when the caller set none). */
export function deadlineOf(call: { getDeadline(): Date | number }): number {
  const deadline = call.getDeadline();
  return deadline instanceof Date ? deadline.getTime() : deadline;
}

export const DEADLINE_PASSED = { code: status.DEADLINE_EXCEEDED, details: 'The caller gave up before this call was started.' };

/** The context a handler sees, from the call's metadata. */
export function contextOf(metadata: ServerUnaryCall<unknown, unknown>['metadata']): CallContext {
  const idempotencyKey = idempotencyKeyFromMetadata(metadata);
  return { caller: callerFromMetadata(metadata), ...(idempotencyKey ? { idempotencyKey } : {}) };
}

/**
 * Adapts promise-returning handlers to grpc-js, with the caller taken from metadata (see
 * typed-service.ts). A call whose deadline has passed is answered DEADLINE_EXCEEDED unstarted; a
 * started one is the budget of every call its handler makes.
 */
export function adaptHandlers(definition: ServiceDefinition, handlers: Record<string, (req: unknown, ctx: CallContext) => Promise<unknown>>): UntypedServiceImplementation {
  const out: UntypedServiceImplementation = {};
  for (const name of Object.keys(definition)) {
    const handler = handlers[name];
    if (!handler) throw new Error(`no handler for ${name}`);
    // '/bindery.identity.v1.IdentityService/GetOrganization' → the service and method of the span
    const [, service = 'grpc', method = name] = (definition[name] as { path?: string }).path?.split('/') ?? [];
    out[name] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
      const [traceparent] = call.metadata.get('traceparent');
      const [tracestate] = call.metadata.get('tracestate');
      const headers = { traceparent: typeof traceparent === 'string' ? traceparent : undefined, tracestate: typeof tracestate === 'string' ? tracestate : undefined };
      // Work nobody waits for any more is not started: its answer could only be thrown away.
      const deadline = deadlineOf(call);
      if (budgetSpent(deadline)) return callback(DEADLINE_PASSED);
      // Everything the handler calls is bounded by this call's deadline (call-budget.ts).
      withCallBudget(deadline, () =>
        traceServerCall(service, method, headers, () => confirmingDenials(freshReadsFromMetadata(call.metadata), () => handler(call.request, contextOf(call.metadata))), codeOf),
      ).then(
        (reply) => callback(null, reply),
        (err) => callback(toServiceError(name, err)),
      );
    };
  }
  return out;
}

/** A gRPC server with the chosen message limits (message-limits.ts). */
export function createGrpcServer(): Server {
  return new Server(messageLimitOptions());
}

/** Binds `host:port` (loopback unless told; a container binds every interface with GRPC_BIND_ADDRESS). */
export async function startGrpcServer(server: Server, port: number, host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
}

/**
 * Stops accepting calls and lets the calls under way finish for at most `graceMs`; calls still running
 * then are cancelled (their callers see CANCELLED or UNAVAILABLE and may retry on another replica).
 */
export async function stopGrpcServer(server: Server, graceMs = 1000): Promise<void> {
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export { Server };
